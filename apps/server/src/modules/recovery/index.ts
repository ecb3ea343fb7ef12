// The recovery module's face: the only file other parts of the server import (decision 0001).
export {
  createRecoveryService,
  RESET_TTL_SECONDS,
  RESETS_PER_ACCOUNT_PER_HOUR,
  type RecoveryService,
} from './recovery-service.js';
export { purgeSpentRecoveryLinks } from './purge.js';
