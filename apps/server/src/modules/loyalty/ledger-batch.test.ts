import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoyaltyEventInput, LoyaltyEventOutcome } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import type { TestDatabase } from '../../testing/test-database.js';
import { createLoyaltyTestDatabase } from '../../testing/loyalty-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { qualifyingWindowStart } from './loyalty-rules.js';
import type { LoyaltyService } from './loyalty-service.js';

// A batch is applied in one transaction and computed in memory (ledger-batch.ts): these tests hold it
// to the meaning of applying its events one at a time, in batch order.

let database: TestDatabase;
let service: LoyaltyService;

beforeAll(async () => {
  ({ database, service } = await createLoyaltyTestDatabase());
});
afterAll(() => database?.drop());

const UNKNOWN = '00000000-0000-4000-8000-00000000beef';
const hours = (n: number) => n * 3_600_000;
const days = (n: number) => n * 86_400_000;
const before = (date: Date, ms: number) => new Date(date.getTime() - ms);

const event = (
  customerId: string,
  sourceId: string,
  points: number,
  extra: Partial<LoyaltyEventInput> = {},
): LoyaltyEventInput => ({
  customerId,
  sourceId,
  points,
  type: points > 0 ? 'rental-completed' : 'adjustment',
  ...extra,
});

/** Applies each event in its own call at its own time (occurredAt = that time), oldest first. */
async function applyHistory(events: readonly LoyaltyEventInput[]) {
  const time = (e: LoyaltyEventInput) => new Date(e.occurredAt!);
  const oldestFirst = [...events].sort((a, b) => time(a).getTime() - time(b).getTime());
  for (const e of oldestFirst) await service.applyEvent(e, time(e));
}

/** Each customer's account and ledger, an expiry's source id written as the seq of its lot. */
async function ledgerState(db: Db, customerIds: readonly string[]) {
  return Promise.all(
    customerIds.map(async (customerId) => {
      const account = await db
        .selectFrom('loyalty_accounts')
        .select(['balance', 'tier', 'tier_expiration_date', 'event_count', 'updated_at'])
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      const entries = await db
        .selectFrom('loyalty_events')
        .select([
          'id',
          'seq',
          'source_id',
          'type',
          'points',
          'remaining_points',
          'occurred_at',
          'expires_at',
          'description',
          'tier_after',
        ])
        .where('customer_id', '=', customerId)
        .orderBy('seq')
        .execute();
      const seqOf = new Map(entries.map((e) => [String(e.id), e.seq]));
      return {
        account,
        entries: entries.map(({ id: _id, ...e }) => ({
          ...e,
          source_id: e.source_id.replace(
            /^expiry:(\d+)$/,
            (_m, id: string) => `expiry of seq ${seqOf.get(id)}`,
          ),
        })),
      };
    }),
  );
}

describe('a batch', () => {
  it('takes negative adjustments of several customers across several lots each, oldest first', async () => {
    const [a, b] = await Promise.all([createTestCustomer(database.db), createTestCustomer(database.db)]);
    const now = new Date('2027-06-01T12:00:00Z');
    const at = (daysAgo: number) => before(now, days(daysAgo)).toISOString();
    await applyHistory([
      event(a!.id, 'a-1', 100, { occurredAt: at(40) }),
      event(a!.id, 'a-2', 100, { occurredAt: at(30) }),
      event(a!.id, 'a-3', 100, { occurredAt: at(20) }),
      event(b!.id, 'b-1', 50, { occurredAt: at(35) }),
      event(b!.id, 'b-2', 50, { occurredAt: at(25) }),
    ]);

    const outcomes = await service.applyEvents(
      [
        event(a!.id, 'a-take-150', -150),
        event(b!.id, 'b-take-70', -70),
        event(a!.id, 'a-4', 40),
        event(a!.id, 'a-take-80', -80),
        event(b!.id, 'b-take-100', -100),
        event(b!.id, 'b-3', 25),
      ],
      now,
    );

    expect(outcomes.map((o) => [o.sourceId, o.status, o.points])).toEqual([
      ['a-take-150', 'recorded', 150],
      ['b-take-70', 'recorded', 30],
      ['a-4', 'recorded', 190],
      ['a-take-80', 'recorded', 110],
      ['b-take-100', 'recorded', 0],
      ['b-3', 'recorded', 25],
    ]);
    expect(outcomes[4]!.message).toMatch(/only 30 points were left, the balance stays at 0/);
    const remaining = async (customerId: string) =>
      (
        await database.db
          .selectFrom('loyalty_events')
          .select(['source_id', 'remaining_points'])
          .where('customer_id', '=', customerId)
          .where('points', '>', 0)
          .orderBy('seq')
          .execute()
      ).map((r) => [r.source_id, r.remaining_points]);
    expect(await remaining(a!.id)).toEqual([
      ['a-1', 0],
      ['a-2', 0],
      ['a-3', 70],
      ['a-4', 40],
    ]);
    expect(await remaining(b!.id)).toEqual([
      ['b-1', 0],
      ['b-2', 0],
      ['b-3', 25],
    ]);
    expect((await service.tierDetails(a!.id, now)).points).toBe(110);
    expect((await service.tierDetails(b!.id, now)).points).toBe(25);
    expect((await service.history(a!.id, 0, 100, now)).totalElements).toBe(6);
  });

  it('records a lot earned exactly 12 months ago and expires it before the next event, as one by one', async () => {
    const [one, all] = await Promise.all([createTestCustomer(database.db), createTestCustomer(database.db)]);
    const now = new Date('2027-03-15T12:00:00Z');
    const events = (customerId: string) => [
      event(customerId, 'edge', 80, { occurredAt: qualifyingWindowStart(now).toISOString() }),
      event(customerId, 'after', 5),
    ];
    for (const e of events(one!.id)) await service.applyEvent(e, now);
    const outcomes = await service.applyEvents(events(all!.id), now);

    expect(outcomes.map((o) => o.points)).toEqual([80, 5]);
    const [expected, actual] = await ledgerState(database.db, [one!.id, all!.id]);
    expect(actual).toEqual(expected);
    expect(actual!.entries.map((e) => [e.seq, e.type, e.points, e.source_id])).toEqual([
      [1, 'rental-completed', 80, 'edge'],
      [2, 'expiry', -80, 'expiry of seq 1'],
      [3, 'rental-completed', 5, 'after'],
    ]);
  });

  // Property-style: random ledgers and batches (duplicates within the batch and against the ledger,
  // negative adjustments, tiers due, lots due, non-members, unknown customers), each batch applied
  // to one set of customers event by event and to an identical set in one call. Fixed seed, printed;
  // LEDGER_BATCH_SEED=<n> and LEDGER_BATCH_RUNS=<n> repeat or widen a run.
  it('answers and writes exactly what applying its events one at a time does', async () => {
    const seed = Number(process.env.LEDGER_BATCH_SEED ?? 20261126);
    const numRuns = Number(process.env.LEDGER_BATCH_RUNS ?? 12);
    const MEMBERS = 3;
    const source = fc.oneof(
      fc.integer({ min: 0, max: 9 }).map((n) => `e-${n}`),
      fc.integer({ min: 0, max: 4 }).map((n) => `h-${n}`),
    );
    const points = fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 2500 }), weight: 3 },
      { arbitrary: fc.integer({ min: -4000, max: -1 }), weight: 1 },
    );
    const historyEvent = fc.record({
      member: fc.integer({ min: 0, max: MEMBERS - 1 }),
      sourceId: fc.integer({ min: 0, max: 4 }).map((n) => `h-${n}`),
      points,
      daysAgo: fc.integer({ min: 1, max: 500 }),
    });
    const batchEvent = fc.record({
      customer: fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: MEMBERS - 1 }), weight: 6 },
        { arbitrary: fc.constantFrom(MEMBERS, MEMBERS + 1), weight: 1 },
      ),
      sourceId: source,
      points,
      bonus: fc.boolean(),
      occurredAt: fc.oneof(
        fc.constant(undefined),
        fc.integer({ min: 0, max: 8700 }).map((h) => ({ hoursAgo: h })),
        fc.constant('window start' as const),
      ),
      description: fc.constantFrom(undefined, 'Rental in Berlin'),
    });
    const scenario = fc.record({
      now: fc.constantFrom('2027-03-15T12:00:00Z', '2028-02-29T12:00:00Z', '2027-05-31T08:30:00Z'),
      history: fc.array(historyEvent, { maxLength: 8 }),
      batch: fc.array(batchEvent, { minLength: 1, maxLength: 30 }),
    });

    console.log(`ledger batch property: LEDGER_BATCH_SEED=${seed} LEDGER_BATCH_RUNS=${numRuns}`);
    await fc.assert(
      fc.asyncProperty(scenario, async ({ now: nowIso, history, batch }) => {
        const now = new Date(nowIso);
        // Two identical sets of customers: three members and one who is not; one id names nobody.
        const world = async () => [
          ...(await Promise.all(Array.from({ length: MEMBERS }, () => createTestCustomer(database.db)))).map(
            (c) => c.id,
          ),
          (await createTestCustomer(database.db, { member: false })).id,
          UNKNOWN,
        ];
        const [oneByOne, inOneCall] = [await world(), await world()];
        for (const ids of [oneByOne, inOneCall]) {
          await applyHistory(
            history.map((h) =>
              event(ids[h.member]!, h.sourceId, h.points, {
                occurredAt: before(now, days(h.daysAgo)).toISOString(),
              }),
            ),
          );
        }
        const eventsOf = (ids: readonly string[]) =>
          batch.map((b) =>
            event(ids[b.customer]!, b.sourceId, b.points, {
              ...(b.points > 0 && b.bonus ? { type: 'bonus' as const } : {}),
              ...(b.occurredAt === 'window start'
                ? { occurredAt: qualifyingWindowStart(now).toISOString() }
                : b.occurredAt
                  ? { occurredAt: before(now, hours(b.occurredAt.hoursAgo)).toISOString() }
                  : {}),
              ...(b.description ? { description: b.description } : {}),
            }),
          );

        const expected: LoyaltyEventOutcome[] = [];
        for (const e of eventsOf(oneByOne)) expected.push(await service.applyEvent(e, now));
        const actual = await service.applyEvents(eventsOf(inOneCall), now);

        // Same answers, customers named by position and the time a duplicate was recorded left out.
        const comparable = (outcomes: LoyaltyEventOutcome[], ids: readonly string[]) =>
          outcomes.map((o) => ({
            ...o,
            customerId: ids.indexOf(o.customerId),
            message: o.message.replace(/already recorded on \S+/, 'already recorded on …'),
          }));
        expect(comparable(actual, inOneCall)).toEqual(comparable(expected, oneByOne));
        // Same accounts and ledgers.
        expect(await ledgerState(database.db, inOneCall.slice(0, MEMBERS + 1))).toEqual(
          await ledgerState(database.db, oneByOne.slice(0, MEMBERS + 1)),
        );
      }),
      { seed, numRuns },
    );
  }, 300_000);
});
