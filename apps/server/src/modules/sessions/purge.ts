import type { Db } from '../../db/database.js';

/**
 * Deletes what no check needs any more: ends whose access tokens have all expired, device entries of
 * expired sessions, and security activity older than the retention
 * (docs/product/security.md#security-activity). Idempotent: every instance may run it.
 */
export async function purgeSessionData(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<{ endedSessions: number; sessionDevices: number; securityEvents: number }> {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return {
    endedSessions: count(
      await db.deleteFrom('ended_sessions').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    sessionDevices: count(
      await db.deleteFrom('session_devices').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    securityEvents: count(
      await db
        .deleteFrom('security_events')
        .where('occurred_at', '<', new Date(now.getTime() - retentionDays * 86_400_000))
        .executeTakeFirst(),
    ),
  };
}
