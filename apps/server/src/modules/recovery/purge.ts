import type { Db } from '../../db/database.js';

/**
 * How long a link's row stays after it expired: the hourly limit on reset e-mails counts the rows of
 * the last hour (docs/product/security.md#forgot-password), so a row must outlive that hour.
 */
const KEPT_AFTER_EXPIRY_MS = 3600 * 1000;

/**
 * Deletes the rows of recovery links (reset, "This wasn't me", sign-in after a reset) that can no
 * longer work and no longer count for a limit: expired more than an hour ago, used or not. Without
 * this the table grows by one row per e-mail for ever. Idempotent: every instance may run it.
 */
export async function purgeSpentRecoveryLinks(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('recovery_tokens')
    .where('expires_at', '<', new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
