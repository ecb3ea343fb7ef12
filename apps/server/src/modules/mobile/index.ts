// The mobile number module's face: the only file other parts of the server import (decision 0001).
export { mobileModule } from './mobile-module.js';
