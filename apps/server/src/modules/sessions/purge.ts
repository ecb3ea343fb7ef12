import type { Db } from '../../db/database.js';

/**
 * Ends the sessions that have run out (docs/product/security.md#sessions): a session nobody ended whose
 * time is up (no renewal within SESSION_TTL_SECONDS) leaves the list of active sessions and is recorded
 * in `ended_sessions` with the reason `expired`, so that an access token of it still in hand is refused
 * like that of any ended session (decision 0031). Answers the session ids marked now.
 */
export async function endExpiredSessions(db: Db, now: Date, keepMs: number): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    const expired = await tx
      .deleteFrom('session_devices')
      .where('expires_at', '<=', now)
      .returning(['sid', 'customer_id'])
      .execute();
    if (!expired.length) return [];
    const marked = await tx
      .insertInto('ended_sessions')
      .values(
        expired.map((row) => ({
          sid: row.sid,
          customer_id: row.customer_id,
          reason: 'expired',
          expires_at: new Date(now.getTime() + keepMs),
        })),
      )
      .onConflict((oc) => oc.column('sid').doNothing())
      .returning('sid')
      .execute();
    return marked.map((row) => row.sid);
  });
}

/**
 * Deletes what no check needs any more: ends whose access tokens have all expired, and security
 * activity older than the retention (docs/product/security.md#security-activity). Device entries of
 * expired sessions go through endExpiredSessions first. Idempotent: every instance may run it.
 */
export async function purgeSessionData(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<{ endedSessions: number; securityEvents: number }> {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return {
    endedSessions: count(
      await db.deleteFrom('ended_sessions').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    securityEvents: count(
      await db
        .deleteFrom('security_events')
        .where('occurred_at', '<', new Date(now.getTime() - retentionDays * 86_400_000))
        .executeTakeFirst(),
    ),
  };
}
