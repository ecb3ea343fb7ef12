import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from '../../db/seed.js';
import { testConfig } from '../../testing/test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { loadLoyaltyContent, type LoyaltyContent } from '../content/index.js';
import { seedDemoLoyalty } from './demo-loyalty.js';
import { addMonths, tierRank } from './loyalty-rules.js';
import { seedDemoCustomers } from '../customers/index.js';

let database: TestDatabase;
let content: LoyaltyContent;

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  await seedDemoCustomers(database.db);
  content = await loadLoyaltyContent(testConfig().contentDir);
  await seedDemoLoyalty(database.db, content);
});
afterAll(() => database?.drop());

const threshold = (slug: string) => content.tierRules.find((r) => r.slug === slug)!.threshold;

async function ledgerOf(cc: string) {
  const db = database.db;
  const customer = await db
    .selectFrom('customers')
    .select('id')
    .where('email', '=', `demo.${cc}@example.com`)
    .executeTakeFirstOrThrow();
  const account = await db
    .selectFrom('loyalty_accounts')
    .selectAll()
    .where('customer_id', '=', customer.id)
    .executeTakeFirst();
  const events = await db
    .selectFrom('loyalty_events')
    .selectAll()
    .where('customer_id', '=', customer.id)
    .orderBy('seq')
    .execute();
  const codes = await db
    .selectFrom('loyalty_partner_codes')
    .selectAll()
    .where('customer_id', '=', customer.id)
    .execute();
  return { account, events, codes };
}

describe('demo loyalty states (docs/product/demo-data.md#demo-customers)', () => {
  it('makes the DE customer royal gold with 250 entries of the last 11 months and two partner codes', async () => {
    const { account, events, codes } = await ledgerOf('de');
    expect(account).toMatchObject({ tier: 'royal-gold', event_count: 250 });
    expect(events).toHaveLength(250);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const total = events.reduce((sum, e) => sum + e.points, 0);
    expect(total).toBeGreaterThanOrEqual(threshold('royal-gold'));
    expect(total).toBeLessThan(threshold('sapphire-diamond'));
    expect(account!.balance).toBe(total);
    expect(events.filter((e) => e.type === 'rental-completed').length).toBeGreaterThan(200);
    expect(events.some((e) => e.type === 'bonus')).toBe(true);
    expect(events.some((e) => e.type === 'adjustment' && e.points < 0)).toBe(true);
    const elevenMonthsAgo = addMonths(new Date(), -11).getTime();
    for (const event of events) {
      expect(event.occurred_at.getTime()).toBeGreaterThan(elevenMonthsAgo);
      expect(event.occurred_at.getTime()).toBeLessThan(Date.now());
    }
    expect(account!.tier_expiration_date!.getTime()).toBeGreaterThan(Date.now());

    expect(codes).toHaveLength(2);
    for (const code of codes) {
      const rule = content.rewardRule(code.slug, 'DE');
      expect(rule?.partnerCode).toBe(true);
      expect(tierRank(rule!.unlockedIn)).toBeLessThanOrEqual(tierRank('royal-gold'));
    }
  });

  it.each([
    ['at', 'ocean-silver'],
    ['fr', 'sky-blue'],
    ['it', 'sapphire-diamond'],
    ['es', 'ocean-silver'],
    ['hu', 'sky-blue'],
    ['dk', 'royal-gold'],
  ])('gives demo.%s@example.com the tier %s and a few entries', async (cc, tier) => {
    const { account, events } = await ledgerOf(cc);
    expect(account?.tier).toBe(tier);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.length).toBeLessThanOrEqual(12);
    expect(account!.balance).toBe(events.reduce((sum, e) => sum + e.points, 0));
    expect(account!.tier_expiration_date === null).toBe(tier === 'sky-blue');
  });

  // Issue 7, defect 6: "Welcome bonus" in a Hungarian history. Demo entries carry no prose: a
  // rental's reference (the same in every language) or nothing, and the app names the type.
  it.each(['de', 'at', 'fr', 'it', 'es', 'hu', 'dk'])(
    'gives %s history entries no text in any language, only rental references',
    async (cc) => {
      const { events } = await ledgerOf(cc);
      for (const event of events) {
        expect(event.description).toMatch(event.type === 'rental-completed' ? /^[A-Z]{2}-\d+$/ : /^$/);
      }
    },
  );

  it('leaves NL, who has not joined, without loyalty data', async () => {
    const { account, events } = await ledgerOf('nl');
    expect(account).toBeUndefined();
    expect(events).toHaveLength(0);
  });

  it('changes nothing when it runs again at the next start', async () => {
    const before = await ledgerOf('de');
    await seedDemoLoyalty(database.db, content);
    const after = await ledgerOf('de');
    expect(after.events).toHaveLength(250);
    expect(after.codes.map((c) => c.code).sort()).toEqual(before.codes.map((c) => c.code).sort());
    expect(after.account).toEqual(before.account);
  });
});
