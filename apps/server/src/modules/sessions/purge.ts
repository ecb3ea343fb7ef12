import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Run-out sessions ended per transaction (endExpiredSessions). */
export const EXPIRED_SESSIONS_PER_TRANSACTION = 1000;

/**
 * Ends the sessions that have run out (docs/product/security.md#sessions): a session nobody ended whose
 * time is up (no renewal within SESSION_TTL_SECONDS) leaves the list of active sessions and is recorded
 * in `ended_sessions` with the reason `expired`, so that an access token of it still in hand is refused
 * like that of any ended session (decision 0031). Answers the session ids marked now.
 *
 * At most EXPIRED_SESSIONS_PER_TRANSACTION per transaction, as many transactions as it takes, rows
 * another instance is ending skipped. All of them in one statement failed once more than 16 383 had
 * run out (four bind parameters each, and PostgreSQL takes at most 65 535), and then at every run,
 * since the set only grew: a million customers' sessions, 29 Nov 2026.
 */
export async function endExpiredSessions(db: Db, now: Date, keepMs: number): Promise<string[]> {
  const marked: string[] = [];
  for (;;) {
    const ended = await db.transaction().execute(async (tx) => {
      const expired = await tx
        .deleteFrom('session_devices')
        .where('sid', 'in', (eb) =>
          eb
            .selectFrom('session_devices')
            .select('sid')
            .where('expires_at', '<=', now)
            .limit(EXPIRED_SESSIONS_PER_TRANSACTION)
            .forUpdate()
            .skipLocked(),
        )
        .returning(['sid', 'customer_id'])
        .execute();
      if (!expired.length) return { count: 0, sids: [] };
      // One array per column: the same text and three parameters whatever the count.
      const { rows } = await sql<{ sid: string }>`
        insert into ended_sessions (sid, customer_id, reason, expires_at)
        select sid, customer_id, 'expired', ${new Date(now.getTime() + keepMs)}::timestamptz
        from unnest(${expired.map((row) => row.sid)}::varchar[], ${expired.map((row) => row.customer_id)}::uuid[])
          as e(sid, customer_id)
        on conflict (sid) do nothing
        returning sid`.execute(tx);
      return { count: expired.length, sids: rows.map((row) => row.sid) };
    });
    marked.push(...ended.sids);
    if (ended.count < EXPIRED_SESSIONS_PER_TRANSACTION) return marked;
  }
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
