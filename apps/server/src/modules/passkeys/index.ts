// The passkeys module's face: the only file other parts of the server import (decision 0001).
export { passkeysModule } from './passkeys-module.js';
export { createPasskeyService, type PasskeyService } from './passkey-service.js';
