import type { Db } from '../../db/database.js';

export interface PurgeCounts {
  outbox: number;
  emailChanges: number;
  mobileChanges: number;
  pinSends: number;
  unsubscribeTokens: number;
}

/**
 * Deletes what no check needs any more: outbox messages older than the retention, expired e-mail and
 * mobile changes (their links and PINs no longer work), PIN sends older than the resend window, and
 * unsubscribe tokens that expired or were used more than a day ago. Idempotent: every instance may run it.
 */
export async function purgeMessagingData(
  db: Db,
  now: Date,
  outboxRetentionDays: number,
): Promise<PurgeCounts> {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  const hourAgo = new Date(now.getTime() - 3600_000);
  const dayAgo = new Date(now.getTime() - 86_400_000);
  return {
    outbox: count(
      await db
        .deleteFrom('outbox')
        .where('created_at', '<', new Date(now.getTime() - outboxRetentionDays * 86_400_000))
        .executeTakeFirst(),
    ),
    emailChanges: count(
      await db.deleteFrom('email_changes').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    mobileChanges: count(
      await db.deleteFrom('mobile_changes').where('expires_at', '<=', now).executeTakeFirst(),
    ),
    pinSends: count(
      await db.deleteFrom('mobile_pin_sends').where('sent_at', '<', hourAgo).executeTakeFirst(),
    ),
    unsubscribeTokens: count(
      await db
        .deleteFrom('unsubscribe_tokens')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', '<', dayAgo)]))
        .executeTakeFirst(),
    ),
  };
}
