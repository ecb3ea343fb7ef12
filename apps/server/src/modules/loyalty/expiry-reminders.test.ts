import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoyaltyEventInput } from '@roadpass/contracts';
import { openDatabase, type Db } from '../../db/database.js';
import { seedReferenceData } from '../../db/seed.js';
import { createMigratedTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { createTestCustomer, setLoyaltyConsent } from '../../testing/loyalty-members.js';
import { testConfig } from '../../testing/test-app.js';
import { loadLoyaltyContent, type LoyaltyContent } from '../content/index.js';
import type { Customer } from '../customers/index.js';
import { createMessageSender, loadMessageTexts, type MessageTexts } from '../messages/index.js';
import { createExpiryReminders, reminderWindows } from './expiry-reminders.js';
import { createLoyaltyService, type LoyaltyService } from './loyalty-service.js';

let database: TestDatabase;
let content: LoyaltyContent;
let texts: MessageTexts;
let service: LoyaltyService;

const log = pino({ level: 'silent' });
const PUBLIC_URL = 'https://roadpass.example';

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  content = await loadLoyaltyContent(testConfig().contentDir);
  texts = await loadMessageTexts(testConfig().contentDir);
  service = createLoyaltyService({ db: database.db, content });
});
afterAll(() => database?.drop());

/** The reminder job of one server instance on `db`. */
const instance = (db: Db = database.db) =>
  createExpiryReminders({
    db,
    sender: createMessageSender({ db, log, from: 'no-reply@roadpass.example' }),
    texts,
    publicUrl: PUBLIC_URL,
    days: [30, 7],
  });

const at = (iso: string) => new Date(iso);
const day = 86_400_000;
const NOW = at('2026-06-10T12:00:00.000Z');
const plus = (days: number) => new Date(NOW.getTime() + days * day);

/** A lot earned 12 months before `expiresAt`, recorded at NOW. */
const earn = (customer: Customer, sourceId: string, points: number, occurredAt: string) =>
  service.applyEvent(
    {
      customerId: customer.id,
      sourceId,
      points,
      type: points > 0 ? 'rental-completed' : 'adjustment',
      occurredAt,
    } as LoyaltyEventInput,
    NOW,
  );

const mailsOf = (customer: Customer) =>
  database.db
    .selectFrom('outbox')
    .select(['kind', 'recipient', 'subject', 'body'])
    .where('customer_id', '=', customer.id)
    .orderBy('created_at')
    .execute();

/** A member with lots expiring 5, 20 and 60 days after NOW (120, 300 and 45 points). */
async function memberWithLots(options: { language?: string } = {}) {
  const customer = await createTestCustomer(database.db);
  if (options.language) {
    await database.db
      .updateTable('customers')
      .set({ language: options.language })
      .where('id', '=', customer.id)
      .execute();
  }
  await earn(customer, 'in-5-days', 120, '2025-06-15T12:00:00.000Z');
  await earn(customer, 'in-20-days', 300, '2025-06-30T12:00:00.000Z');
  await earn(customer, 'in-60-days', 45, '2025-08-09T12:00:00.000Z');
  return customer;
}

describe('reminder windows', () => {
  it('gives each lot the reminder of the window it is in, the nearest last', () => {
    expect(reminderWindows([7, 30, 30])).toEqual([
      { kind: 'days-30', fromDays: 7, toDays: 30 },
      { kind: 'days-7', fromDays: 0, toDays: 7 },
    ]);
  });
});

describe('points expiry reminders', () => {
  it("writes one e-mail per reminder in the customer's language: how many, when, and the status page", async () => {
    const customer = await memberWithLots();
    await instance().run(NOW);
    const mails = await mailsOf(customer);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail).toMatchObject({
        kind: 'points-expiry',
        recipient: customer.email,
        subject: 'Deine Roadpass-Punkte verfallen bald',
      });
      expect(mail.body).toContain('Hallo Test,');
      expect(mail.body).toContain(`${PUBLIC_URL}/customer/loyalty-ui/status?locale=de-DE`);
    }
    const bodies = mails.map((m) => m.body).join('\n---\n');
    expect(bodies).toContain('- 120 Punkte am 15. Juni 2026');
    expect(bodies).toContain('- 300 Punkte am 30. Juni 2026');
    expect(bodies).not.toContain('45 Punkte');
  });

  it('sends nothing more when run again, or by a restarted instance', async () => {
    const customer = await memberWithLots();
    await instance().run(NOW);
    await instance().run(NOW);
    await instance().run(new Date(NOW.getTime() + 3_600_000));
    expect(await mailsOf(customer)).toHaveLength(2);
  });

  it('sends the 7-day reminder when the clock reaches it, and the 30-day one of a later lot', async () => {
    const customer = await memberWithLots({ language: 'fr_FR' });
    const job = instance();
    await job.run(NOW);
    expect(await mailsOf(customer)).toHaveLength(2);

    // 15 days on: the lot of 30 June is 5 days away (its 7-day reminder), the August lot 45 days.
    await job.run(plus(15));
    const afterTwoWeeks = await mailsOf(customer);
    expect(afterTwoWeeks).toHaveLength(3);
    expect(afterTwoWeeks[2]!.body).toContain('- 300 points le 30 juin 2026');
    expect(afterTwoWeeks[2]!.subject).toBe('Vos points Roadpass expirent bientôt');

    // 31 days on: the August lot is 29 days away.
    await job.run(plus(31));
    await job.run(plus(31));
    const later = await mailsOf(customer);
    expect(later).toHaveLength(4);
    expect(later[3]!.body).toContain('- 45 points le 9 août 2026');

    // 55 days on: its 7-day reminder; then nothing is left to remind of.
    await job.run(plus(55));
    await job.run(plus(80));
    expect(await mailsOf(customer)).toHaveLength(5);
  });

  it("names what is left of a lot after the ledger's oldest-first spending, and nothing for a spent lot", async () => {
    const customer = await memberWithLots();
    // -150: all 120 of the lot of 15 June, 30 of the lot of 30 June.
    await earn(customer, 'correction', -150, '2026-06-01T12:00:00.000Z');
    await instance().run(NOW);
    const mails = await mailsOf(customer);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('- 270 Punkte am 30. Juni 2026');
  });

  it('respects the "Points reminders" choice and the membership', async () => {
    const job = instance();
    const off = await memberWithLots();
    expect(await job.enabled(off.id)).toBe(true);
    await job.setEnabled(off.id, false);
    expect(await job.enabled(off.id)).toBe(false);
    const left = await memberWithLots();
    await setLoyaltyConsent(database.db, left, false);

    await job.run(NOW);
    expect(await mailsOf(off)).toHaveLength(0);
    expect(await mailsOf(left)).toHaveLength(0);

    // Turned on again: the reminders still due go out.
    await job.setEnabled(off.id, true);
    await job.run(NOW);
    expect(await mailsOf(off)).toHaveLength(2);
  });

  it('reminds once when two instances run at the same time', async () => {
    const customers = [await memberWithLots(), await memberWithLots(), await memberWithLots()];
    // On PostgreSQL the second instance has its own connection pool, as another server would.
    const second = database.url
      ? await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 3 })
      : undefined;
    try {
      const totals = await Promise.all([
        instance().run(NOW),
        instance(second ?? database.db).run(NOW),
        instance().run(NOW),
      ]);
      for (const customer of customers) expect(await mailsOf(customer)).toHaveLength(2);
      const reminded = await database.db
        .selectFrom('loyalty_expiry_reminders')
        .select(['kind', 'outbox_id'])
        .where(
          'customer_id',
          'in',
          customers.map((c) => c.id),
        )
        .execute();
      expect(reminded).toHaveLength(6);
      expect(reminded.every((r) => r.outbox_id !== null)).toBe(true);
      expect(totals.reduce((sum, t) => sum + t.lots, 0)).toBeGreaterThanOrEqual(6);
    } finally {
      await second?.destroy();
    }
  });
});
