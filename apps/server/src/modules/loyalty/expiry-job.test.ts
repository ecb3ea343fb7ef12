import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoyaltyEventInput } from '@roadpass/contracts';
import type { TestDatabase } from '../../testing/test-database.js';
import { createLoyaltyTestDatabase } from '../../testing/loyalty-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import type { LoyaltyContent } from '../content/index.js';
import { addMonths } from './loyalty-rules.js';
import type { ExpiryTotals, LoyaltyService } from './loyalty-service.js';

/**
 * The expiry job expires many customers per transaction (decision 0045). Its result for each
 * customer must be the one the per-customer path (a batch of one, what a member's visit runs) gives:
 * the same expiry entries, remainders and account, whatever batch the customer fell into, and the
 * same with event batches and a second run of the job at the same time.
 */

let database: TestDatabase;
let content: LoyaltyContent;
let service: LoyaltyService;

beforeAll(async () => {
  ({ database, content, service } = await createLoyaltyTestDatabase());
});
afterAll(() => database?.drop());

const days = (n: number) => n * 86_400_000;
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);
const threshold = (slug: string) => content.tierRules.find((r) => r.slug === slug)!.threshold;

const t0 = new Date('2025-01-10T08:00:00Z');
const t1 = later(t0, days(20));
const t2 = addMonths(t0, 9);
/** Lots of t0 and t1 are due, those of t2 are not; tiers reached at t1 are computed again. */
const due = later(addMonths(t1, 12), 3_600_000);

type Step = { at: Date; events: (customerId: string) => LoyaltyEventInput[] };

/**
 * Customer number i's history, in three steps: lots due, partly used or wholly used by an
 * adjustment, several lots due at once, a tier reached a year ago (lowered on its date), lots not
 * yet due, and customers with nothing due at all.
 */
function scenario(i: number): Step[] {
  const event = (sourceId: string, points: number, at: Date, type?: LoyaltyEventInput['type']) =>
    ({
      sourceId,
      points,
      type: type ?? (points > 0 ? 'rental-completed' : 'adjustment'),
      occurredAt: at.toISOString(),
      description: `${sourceId} of customer ${i}`,
    }) as LoyaltyEventInput;
  const nothingDue = i % 8 === 5;
  return [
    {
      at: t0,
      events: () => (nothingDue ? [] : [event('first', 40 + i, later(t0, -days(i % 3)))]),
    },
    {
      at: t1,
      events: () => [
        ...(i % 4 === 1 ? [event('correction', -(20 + (i % 7)), t1)] : []),
        ...(i % 7 === 3 ? [event('all-used', -500, t1)] : []),
        ...(i % 5 === 0 ? [event('gold-bonus', threshold('royal-gold'), t1, 'bonus')] : []),
        ...(i % 6 === 2 && !nothingDue ? [event('second', 25, t1)] : []),
      ],
    },
    { at: t2, events: () => (i % 2 === 0 || nothingDue ? [event('recent', 15, t2)] : []) },
  ];
}

/** Customers with the histories of `scenario`, built a step at a time in one event batch per step. */
async function customersWithHistories(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) ids.push((await createTestCustomer(database.db)).id);
  for (let step = 0; step < 3; step += 1) {
    const at = scenario(0)[step]!.at;
    const events = ids.flatMap((id, i) => {
      const { events: of } = scenario(i)[step]!;
      return of(id).map((e) => ({ ...e, customerId: id }));
    });
    const outcomes = await service.applyEvents(events, at);
    expect(outcomes.every((o) => o.status === 'recorded')).toBe(true);
  }
  return ids;
}

/**
 * A customer's ledger and account as comparable values: without the database's ids and times of
 * recording, an expiry entry's source id naming its lot by the lot's seq instead of its id.
 */
async function ledgerOf(customerId: string) {
  const rows = await database.db
    .selectFrom('loyalty_events')
    .select([
      'id',
      'seq',
      'source_id',
      'type',
      'points',
      'occurred_at',
      'expires_at',
      'remaining_points',
      'description',
      'tier_after',
    ])
    .where('customer_id', '=', customerId)
    .orderBy('seq')
    .execute();
  const seqOfId = new Map(rows.map((r) => [String(r.id), r.seq]));
  const entries = rows.map(({ id: _id, source_id, ...rest }) => ({
    ...rest,
    source: source_id.startsWith('expiry:') ? `expiry of seq ${seqOfId.get(source_id.slice(7))}` : source_id,
  }));
  const account = await database.db
    .selectFrom('loyalty_accounts')
    .select(['balance', 'tier', 'tier_expiration_date', 'event_count', 'updated_at'])
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return { entries, account };
}

const sum = (totals: readonly ExpiryTotals[]): ExpiryTotals =>
  totals.reduce(
    (a, t) => ({
      customers: a.customers + t.customers,
      lots: a.lots + t.lots,
      points: a.points + t.points,
      tiersRecomputed: a.tiersRecomputed + t.tiersRecomputed,
      tiersLowered: a.tiersLowered + t.tiersLowered,
    }),
    { customers: 0, lots: 0, points: 0, tiersRecomputed: 0, tiersLowered: 0 },
  );

describe('the expiry job, many customers per transaction', () => {
  const count = 40;
  let batched: string[];
  let batchedTotals: ExpiryTotals;

  it('expires every customer of a run, batch after batch, as the per-customer path does', async () => {
    batched = await customersWithHistories(count);
    // Batches of 7: the 40 customers (35 with something due) fall into several transactions.
    batchedTotals = await service.expireAll(due, { batchSize: 7 });

    // The same histories for other customers, each expired on their own.
    const oneByOne = await customersWithHistories(count);
    const single = [];
    for (const id of oneByOne) single.push(await service.expireCustomer(id, due));
    const changed = single.filter((e) => e.lots > 0 || e.tierRecomputed);
    expect(batchedTotals).toEqual({
      customers: changed.length,
      lots: single.reduce((n, e) => n + e.lots, 0),
      points: single.reduce((n, e) => n + e.points, 0),
      tiersRecomputed: single.filter((e) => e.tierRecomputed).length,
      tiersLowered: single.filter((e) => e.tierLowered).length,
    });
    expect(batchedTotals.customers).toBeGreaterThan(count / 2);
    expect(batchedTotals.tiersLowered).toBe(count / 5);

    for (let i = 0; i < count; i += 1) {
      expect(await ledgerOf(batched[i]!), `customer ${i}`).toEqual(await ledgerOf(oneByOne[i]!));
    }
    // Nothing is left due, and a second run finds nothing.
    expect(await service.expireAll(due, { batchSize: 7 })).toMatchObject({ customers: 0, lots: 0 });
  });

  it('expires each lot once with event batches and a second run of the job at the same time', async () => {
    const ids = await customersWithHistories(count);
    const expected = sum([await dryRunTotals(ids)]);
    const late = later(due, 60_000);
    // Event batches of the same moment for a third of the customers: each expires what is due of
    // its customers before recording (docs/product/loyalty.md#loyalty-rules), holding their locks.
    const eventBatches = [0, 1, 2].map((part) =>
      service.applyEvents(
        ids
          .filter((_, i) => i % 9 === part)
          .map((customerId) => ({
            customerId,
            sourceId: `during-expiry`,
            points: 5,
            type: 'bonus',
            occurredAt: late.toISOString(),
          })),
        late,
      ),
    );
    const runs = await Promise.all([
      service.expireAll(late, { batchSize: 5 }),
      service.expireAll(late, { batchSize: 8 }),
    ]);
    await Promise.all(eventBatches);

    const ran = sum(runs);
    expect(ran.lots).toBeLessThanOrEqual(expected.lots);
    const expiries = await database.db
      .selectFrom('loyalty_events')
      .select(['customer_id', 'points'])
      .where('customer_id', 'in', ids)
      .where('type', '=', 'expiry')
      .execute();
    // Every due lot has exactly one expiry entry (by whichever transaction got there first).
    expect(expiries).toHaveLength(expected.lots);
    expect(-expiries.reduce((n, e) => n + e.points, 0)).toBe(expected.points);
    for (const id of ids) {
      const { entries, account } = await ledgerOf(id);
      expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
      expect(account.event_count).toBe(entries.length);
      expect(account.balance).toBe(entries.reduce((n, e) => n + e.remaining_points, 0));
      expect(entries.filter((e) => e.remaining_points > 0 && e.expires_at! <= late)).toEqual([]);
    }
  });
});

/** What expiring these customers at `due` would do, from their open lots (read, nothing written). */
async function dryRunTotals(ids: readonly string[]): Promise<ExpiryTotals> {
  const lots = await database.db
    .selectFrom('loyalty_events')
    .select(['remaining_points'])
    .where('customer_id', 'in', ids)
    .where('remaining_points', '>', 0)
    .where('expires_at', '<=', later(due, 60_000))
    .execute();
  return {
    customers: 0,
    lots: lots.length,
    points: lots.reduce((n, l) => n + l.remaining_points, 0),
    tiersRecomputed: 0,
    tiersLowered: 0,
  };
}
