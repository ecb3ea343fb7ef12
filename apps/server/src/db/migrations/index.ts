import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-customers.js';
import * as m0002 from './0002-identity-provider.js';
import * as m0003 from './0003-consents.js';
import * as m0004 from './0004-loyalty.js';
import * as m0005 from './0005-login-throttle-scopes.js';
import * as m0007 from './0007-account-messaging.js';
import * as m0008 from './0008-error-reports.js';
import * as m0009 from './0009-change-notices.js';
import * as m0010 from './0010-salutations-from-rules.js';
import * as m0011 from './0011-security-events.js';
import * as m0012 from './0012-sessions.js';
import * as m0013 from './0013-account-recovery.js';
import * as m0014 from './0014-passkeys.js';
import * as m0015 from './0015-points-expiry-reminders.js';
import * as m0019 from './0019-data-rights.js';
import * as m0044 from './0044-dpop-proofs.js';
import * as m0061 from './0061-session-devices-room-for-updates.js';
import * as m0062 from './0062-ledger-covering-indexes.js';

/** Every migration, in order. Listed statically so the compiled server needs no file scanning. */
export const migrations: Record<string, Migration> = {
  '0001-customers': m0001,
  '0002-identity-provider': m0002,
  '0003-consents': m0003,
  '0004-loyalty': m0004,
  '0005-login-throttle-scopes': m0005,
  '0007-account-messaging': m0007,
  '0008-error-reports': m0008,
  '0009-change-notices': m0009,
  '0010-salutations-from-rules': m0010,
  '0011-security-events': m0011,
  '0012-sessions': m0012,
  '0013-account-recovery': m0013,
  '0014-passkeys': m0014,
  '0015-points-expiry-reminders': m0015,
  '0019-data-rights': m0019,
  '0044-dpop-proofs': m0044,
  '0061-session-devices-room-for-updates': m0061,
  '0062-ledger-covering-indexes': m0062,
};
