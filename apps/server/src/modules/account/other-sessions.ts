import type { Db } from '../../db/database.js';
import { endSessions, type SessionEndReason } from '../sessions/index.js';

/**
 * Ends every session of the customer except the one of `keepSid` (the session of the access token in
 * hand), with their grants and tokens; their access tokens are refused at once on every instance
 * (docs/product/security.md#sessions). Delegates to the sessions module. Returns how many ended.
 */
export async function endOtherSessions(
  db: Db,
  customerId: string,
  keepSid: string | undefined,
  reason: SessionEndReason = 'signed_out_elsewhere',
): Promise<number> {
  return (await endSessions(db, customerId, { except: keepSid }, reason)).length;
}
