import { sql } from 'kysely';
import { appPaths, normaliseLocale } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { isLoyaltyMemberSql } from '../consents/index.js';
import { linkInLanguage, type MessageSender, type MessageTexts } from '../messages/index.js';
import { systemClock, type Clock } from './loyalty-rules.js';

const DAY_MS = 86_400_000;

/** One reminder kind: lots expiring in (now + fromDays, now + toDays] get it. */
interface ReminderWindow {
  kind: string;
  fromDays: number;
  toDays: number;
}

/**
 * The reminder windows for days before expiry, e.g. [30, 7] → `days-30` for lots expiring in 8–30
 * days, `days-7` for those expiring within 7 days. A lot first seen inside a later window (recorded
 * late, or the job was off) gets that window's reminder only, never two mails at once.
 */
export function reminderWindows(days: readonly number[]): ReminderWindow[] {
  const sorted = [...new Set(days.filter((d) => d > 0))].sort((a, b) => b - a);
  return sorted.map((toDays, i) => ({ kind: `days-${toDays}`, fromDays: sorted[i + 1] ?? 0, toDays }));
}

export interface ExpiryRemindersOptions {
  db: Db;
  sender: MessageSender;
  texts: MessageTexts;
  publicUrl: string;
  /** Days before expiry a reminder is sent, e.g. [30, 7] (LOYALTY_REMINDER_DAYS). */
  days: readonly number[];
  clock?: Clock;
}

export interface ReminderTotals {
  /** E-mails written (one per customer and reminder kind per run). */
  emails: number;
  /** Lots reminded of. */
  lots: number;
}

/**
 * Points expiry reminders (docs/product/loyalty.md#expiry-reminders, decision 0035): an e-mail before
 * points expire, once per lot and reminder kind whatever the number of instances, runs and restarts.
 * For each customer with lots due a reminder, one transaction locks the loyalty account (as every
 * ledger change does), inserts the (lot, kind) rows that do not exist yet (`on conflict do nothing`:
 * the primary key decides) and, only if it inserted any, the outbox row of the e-mail naming them.
 * The mail goes to the mail server after the commit. A second instance running at the same time waits
 * for the lock and then finds every row there: it writes nothing.
 */
export function createExpiryReminders({
  db,
  sender,
  texts,
  publicUrl,
  days,
  clock = systemClock,
}: ExpiryRemindersOptions) {
  const windows = reminderWindows(days);

  /** Lots of `customerId` (or everyone's) in the window, not reminded yet, for members who want reminders. */
  const dueLots = (window: ReminderWindow, now: Date) => {
    const from = new Date(now.getTime() + window.fromDays * DAY_MS);
    const to = new Date(now.getTime() + window.toDays * DAY_MS);
    return sql`
      from loyalty_events e
      where e.remaining_points > 0 and e.expires_at > ${from} and e.expires_at <= ${to}
        and not exists (select 1 from loyalty_expiry_reminders r where r.event_id = e.id and r.kind = ${window.kind})
        and not exists (select 1 from points_reminder_settings s
          where s.customer_id = e.customer_id and not s.points_reminders)
        and ${isLoyaltyMemberSql(sql.ref('e.customer_id'))}`;
  };

  /** Writes one customer's reminder for one window; answers the outbox id, or null when nothing was due. */
  async function remindCustomer(customerId: string, window: ReminderWindow, now: Date) {
    return db.transaction().execute(async (tx) => {
      const locked = await tx
        .selectFrom('loyalty_accounts')
        .select('customer_id')
        .where('customer_id', '=', customerId)
        .forUpdate()
        .executeTakeFirst();
      const customer = await tx
        .selectFrom('customers')
        .select(['email', 'language', 'first_name'])
        .where('id', '=', customerId)
        .executeTakeFirst();
      if (!locked || !customer) return null;
      const { rows } = await sql<{ event_id: string | number; expires_at: Date; points: number }>`
        insert into loyalty_expiry_reminders (event_id, kind, customer_id, expires_at, points)
        select e.id, ${window.kind}, e.customer_id, e.expires_at, e.remaining_points
        ${dueLots(window, now)} and e.customer_id = ${customerId}
        on conflict (event_id, kind) do nothing
        returning event_id, expires_at, points`.execute(tx);
      if (rows.length === 0) return null;

      const locale = normaliseLocale(customer.language);
      const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
      const numberFormat = new Intl.NumberFormat(locale.split('-')[0]);
      const byDay = new Map<string, { date: Date; points: number }>();
      for (const row of rows) {
        const date = new Date(row.expires_at);
        const day = date.toISOString().slice(0, 10);
        const entry = byDay.get(day) ?? { date, points: 0 };
        entry.points += Number(row.points);
        byDay.set(day, entry);
      }
      const lines = [...byDay.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([, { date, points }]) =>
          texts.render(customer.language, 'points-expiry.line', {
            points: numberFormat.format(points),
            date: dateFormat.format(date),
          }),
        )
        .join('\n');
      const values = {
        name: customer.first_name,
        lines,
        link: linkInLanguage(publicUrl, `${appPaths.loyaltyBase}/status`, customer.language),
      };
      const outboxId = await sender.storeEmail(tx, {
        to: customer.email,
        subject: texts.render(customer.language, 'points-expiry.subject', values),
        text: texts.render(customer.language, 'points-expiry.body', values),
        kind: 'points-expiry',
        customerId,
      });
      await tx
        .updateTable('loyalty_expiry_reminders')
        .set({ outbox_id: outboxId })
        .where('kind', '=', window.kind)
        .where(sql<boolean>`event_id = any(${rows.map((r) => String(r.event_id))}::bigint[])`)
        .execute();
      return { outboxId, lots: rows.length };
    });
  }

  return {
    windows,

    /** One run at `now`: every reminder due, each e-mail delivered after its transaction commits. */
    async run(now: Date = clock()): Promise<ReminderTotals> {
      const totals: ReminderTotals = { emails: 0, lots: 0 };
      for (const window of windows) {
        const { rows } = await sql<{ customer_id: string }>`
          select distinct e.customer_id ${dueLots(window, now)}`.execute(db);
        for (const { customer_id: customerId } of rows) {
          const written = await remindCustomer(customerId, window, now);
          if (!written) continue;
          totals.emails += 1;
          totals.lots += written.lots;
          await sender.deliverStored(written.outboxId);
        }
      }
      return totals;
    },

    /** The customer's "Points reminders" choice: on unless they turned it off. */
    async enabled(customerId: string): Promise<boolean> {
      const row = await db
        .selectFrom('points_reminder_settings')
        .select('points_reminders')
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row?.points_reminders ?? true;
    },

    async setEnabled(customerId: string, enabled: boolean): Promise<boolean> {
      await db
        .insertInto('points_reminder_settings')
        .values({ customer_id: customerId, points_reminders: enabled, updated_at: clock() })
        .onConflict((oc) =>
          oc.column('customer_id').doUpdateSet({ points_reminders: enabled, updated_at: clock() }),
        )
        .execute();
      return enabled;
    },
  };
}

export type ExpiryReminders = ReturnType<typeof createExpiryReminders>;
