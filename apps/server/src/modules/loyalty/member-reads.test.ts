import { randomUUID } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoyaltyHistoryEntry, type LoyaltyEventInput } from '@roadpass/contracts';
import { openDatabase, type Db } from '../../db/database.js';
import { seedReferenceData } from '../../db/seed.js';
import { InvalidatingCache } from '../../lib/invalidating-cache.js';
import { createMigratedTestDatabase, testDbTarget, type TestDatabase } from '../../testing/test-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { testConfig } from '../../testing/test-app.js';
import { loadLoyaltyContent, type LoyaltyContent } from '../content/index.js';
import { addMonths, qualifyingWindowStart } from './loyalty-rules.js';
import { loyaltyQueries } from './loyalty-repository.js';
import { expiryForecast } from './expiry-forecast.js';
import { createLoyaltyService } from './loyalty-service.js';

// Decision 0054: the members' reads of one turn of the event loop go to the database together. Each
// member must still get their own answer, exactly what a read alone gives.

let database: TestDatabase;
let content: LoyaltyContent;
/** Members with 3, 6, 9 and 12 entries (33, 135, 306 and 546 points), and one customer who is not a member. */
let members: string[];
let outsider: string;

const rental = (customerId: string, sourceId: string, points: number, occurredAt?: Date) =>
  ({
    customerId,
    sourceId,
    points,
    type: 'rental-completed',
    ...(occurredAt ? { occurredAt: occurredAt.toISOString() } : {}),
  }) as LoyaltyEventInput;

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  content = await loadLoyaltyContent(testConfig().contentDir);
  const service = createLoyaltyService({ db: database.db, content });
  members = [];
  for (let m = 1; m <= 4; m++) {
    const id = (await createTestCustomer(database.db)).id;
    members.push(id);
    await service.applyEvents(Array.from({ length: 3 * m }, (_, i) => rental(id, `m${m}-${i}`, 10 * m + i)));
  }
  outsider = (await createTestCustomer(database.db, { member: false })).id;
});
afterAll(() => database?.drop());

/**
 * A service on the database, counting the statements it sends (raw SQL included); with `cache`, the
 * read cache it is given (as the server gives it one, on or off).
 */
function countingService(failNext = { on: false }, cache?: InvalidatingCache<unknown>) {
  let statements = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements += 1;
      if (failNext.on) {
        failNext.on = false;
        throw new Error('the database went away');
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const db: Db = database.db.withPlugin(plugin);
  return { service: createLoyaltyService({ db, content, cache }), statements: () => statements };
}

/** Customers with 40+i points earned at t0 (due 12 months later) and 5 earned 11 months after t0. */
async function customersWithLotsDue(count: number, t0: Date): Promise<string[]> {
  const setup = createLoyaltyService({ db: database.db, content });
  const ids = [];
  for (let i = 0; i < count; i++) {
    const id = (await createTestCustomer(database.db)).id;
    ids.push(id);
    await setup.applyEvent(rental(id, `old-${i}`, 40 + i, t0), t0);
    await setup.applyEvent(rental(id, `new-${i}`, 5, addMonths(t0, 11)), addMonths(t0, 11));
  }
  return ids;
}

/** When each customer's expiry entries were recorded: one transaction records them at one moment. */
const expiryRecordedAt = async (ids: readonly string[]) =>
  Promise.all(
    ids.map(async (id) => {
      const rows = await database.db
        .selectFrom('loyalty_events')
        .select('recorded_at')
        .where('customer_id', '=', id)
        .where('type', '=', 'expiry')
        .execute();
      expect(rows).toHaveLength(1);
      return rows[0]!.recorded_at.getTime();
    }),
  );

describe("members' reads asked together", () => {
  it('answer each member with their own tier details, in one statement', async () => {
    const alone = createLoyaltyService({ db: database.db, content });
    const expected = [];
    for (const id of members) expected.push(await alone.tierDetails(id));

    const { service, statements } = countingService();
    const together = await Promise.all([
      ...members.map((id) => service.tierDetails(id)),
      service.tierDetails(outsider).catch((error: Error) => error.message),
      service.tierDetails(randomUUID()).catch((error: Error) => error.message),
      service.tierDetails(members[0]!.toUpperCase()),
    ]);
    expect(together.slice(0, 4)).toEqual(expected);
    expect(expected.map((d) => d.points)).toEqual([33, 135, 306, 546]);
    expect(together[4]).toMatch(/not a member|member/i);
    expect(together[5]).toMatch(/not a member|member/i);
    expect(together[6]).toEqual(expected[0]);
    expect(statements()).toBe(1);
  });

  it('answer each member with their own history page, states and pages of one turn in one statement', async () => {
    const alone = createLoyaltyService({ db: database.db, content });
    const asks = [
      [members[0]!, 0, 2],
      [members[0]!, 1, 2],
      [members[1]!, 0, 20],
      [members[2]!, 2, 4],
      [members[3]!, 5, 5],
    ] as const;
    const expected = [];
    for (const [id, page, size] of asks) expected.push(await alone.history(id, page, size));

    const { service, statements } = countingService();
    const together = await Promise.all([
      ...asks.map(([id, page, size]) => service.history(id, page, size)),
      service.history(outsider, 0, 5).catch((error: Error) => error.message),
      service.history(randomUUID(), 0, 5).catch((error: Error) => error.message),
    ]);
    expect(together.slice(0, 5)).toEqual(expected);
    expect(expected.map((p) => p.content.length)).toEqual([2, 1, 6, 1, 0]);
    expect(expected.map((p) => p.totalElements)).toEqual([3, 3, 6, 9, 12]);
    expect(expected[2]!.content.every((entry) => entry.points >= 20 && entry.points < 30)).toBe(true);
    expect(together[5]).toMatch(/member/i);
    expect(together[6]).toMatch(/member/i);
    // Each member's state and page are read together: one statement for all of them.
    expect(statements()).toBe(1);

    // The same with a read cache that holds none of them, and with one switched off (the server's
    // READ_CACHE_CUSTOMERS=0, or an instance whose change listener is down): a page not in the cache
    // is still one statement with its state, not the state first and the page after it.
    for (const enabled of [true, false]) {
      const cache = new InvalidatingCache<unknown>({ maxKeys: 10, enabled });
      const cached = countingService(undefined, cache);
      const pages = await Promise.all(asks.map(([id, page, size]) => cached.service.history(id, page, size)));
      expect(pages).toEqual(expected);
      expect(cached.statements()).toBe(1);
      // A cache that is on answers them again from memory; one that is off reads again.
      expect(await cached.service.history(members[1]!, 0, 20)).toEqual(expected[2]);
      expect(cached.statements()).toBe(enabled ? 1 : 2);
    }
  });

  it('write each history entry as the ledger holds it, with the read cache and without', async () => {
    const id = (await createTestCustomer(database.db)).id;
    await createLoyaltyService({ db: database.db, content }).applyEvents([
      rental(id, 'format-1', 7),
      rental(id, 'format-2', 9),
    ]);
    // A time with microseconds (cut to milliseconds, never rounded up, as toISOString does) and a
    // description JSON must escape.
    const awkward = 'Rental "Ünïcødé" \\ back\nslash\t€ 😀';
    await database.db
      .updateTable('loyalty_events')
      .set({ occurred_at: sql<Date>`'2026-03-01T10:00:00.999999Z'::timestamptz`, description: awkward })
      .where('customer_id', '=', id)
      .where('seq', '=', 2)
      .execute();
    const rows = await database.db
      .selectFrom('loyalty_events')
      .select(['id', 'type', 'points', 'tier_after', 'occurred_at', 'expires_at', 'description'])
      .where('customer_id', '=', id)
      .orderBy('seq', 'desc')
      .execute();
    const expected = rows.map((row) => ({
      id: String(row.id),
      type: row.type,
      points: row.points,
      tier: row.tier_after,
      occurredAt: new Date(row.occurred_at).toISOString(),
      expirationDate: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
      description: row.description,
    }));
    expect(expected[0]).toMatchObject({ occurredAt: '2026-03-01T10:00:00.999Z', description: awkward });
    const cached = createLoyaltyService({
      db: database.db,
      content,
      cache: new InvalidatingCache<unknown>({ maxKeys: 10 }),
    });
    for (const service of [createLoyaltyService({ db: database.db, content }), cached]) {
      const page = await service.history(id, 0, 20);
      expect(page.content).toEqual(expected);
      // Keys in the contract's order.
      expect(Object.keys(page.content[0]!)).toEqual(Object.keys(LoyaltyHistoryEntry.properties));
    }
  });

  it('answer each member with their own expiry forecast', async () => {
    const alone = createLoyaltyService({ db: database.db, content });
    const expected = [];
    for (const id of members) expected.push(await alone.expiryForecast(id));
    const { service, statements } = countingService();
    const together = await Promise.all(members.map((id) => service.expiryForecast(id)));
    expect(together).toEqual(expected);
    // Each member's own lots: all of them expire a year from now, the bigger member's more.
    expect(together.map((f) => f.nextExpiry?.points)).toEqual([33, 135, 306, 546]);
    // States, open lots and the tier's windows: one statement for all of them.
    expect(statements()).toBe(1);
  });

  it('forecast from the lots summed per UTC day what every lot of the member gives', async () => {
    const { service } = countingService();
    const id = (await createTestCustomer(database.db)).id;
    // Lots expiring at 23:30 and 23:59 of one UTC day, 00:30 of the next, and two a month later.
    const now = new Date('2026-03-10T12:00:00Z');
    const earned = [
      ['2025-12-14T23:30:00Z', 7],
      ['2025-12-14T23:59:00Z', 11],
      ['2025-12-15T00:30:00Z', 13],
      ['2026-01-20T08:00:00Z', 17],
      ['2026-01-20T09:00:00Z', 19],
    ] as const;
    for (const [at, points] of earned)
      await service.applyEvent(rental(id, `day-${at}`, points, new Date(at)), now);
    const q = loyaltyQueries(database.db);
    const account = await q.findAccount(id);
    const expected = expiryForecast({
      now,
      lots: await q.openLots([], [id], new Date(0)),
      tier: account!.tier,
      tierExpirationDate: account!.tierExpirationDate,
      collectedForTier: account!.tierExpirationDate
        ? (
            await q.collectedInWindows([
              { customerId: id, since: qualifyingWindowStart(account!.tierExpirationDate) },
            ])
          )[0]!
        : 0,
      rules: content.tierRules,
    });
    const forecast = await service.expiryForecast(id, { now });
    expect(forecast).toEqual(expected);
    // The nearest day is 14 Dec, both of its lots, at the first one's moment; 00:30 is the next day.
    expect(forecast.nextExpiry).toEqual({ points: 18, date: '2026-12-14T23:30:00.000Z' });
    expect(forecast.months.find((m) => m.month === '2026-12')?.points).toBe(31);
    expect(forecast.months.find((m) => m.month === '2027-01')?.points).toBe(36);
  });

  it("count the tier's qualifying window as the ledger does, at the ends of months", async () => {
    const id = members[0]!;
    const q = loyaltyQueries(database.db);
    const entries = await database.db
      .selectFrom('loyalty_events')
      .select('id')
      .where('customer_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(entries).toHaveLength(3);
    const tierDates = [
      '2027-03-31T10:00:00.000Z',
      '2028-02-29T23:59:59.999Z',
      '2027-02-28T00:00:00.000Z',
      '2026-12-31T23:30:00.000Z',
    ];
    try {
      for (const tierDate of tierDates) {
        const since = qualifyingWindowStart(new Date(tierDate));
        await database.db
          .updateTable('loyalty_accounts')
          .set({ tier_expiration_date: new Date(tierDate) })
          .where('customer_id', '=', id)
          .execute();
        // One entry just before the window, one at its start (outside: the window opens after it),
        // one just after: 100, 1 000 and 10 000 points (never below what the lots have left).
        for (const [k, offset, points] of [
          [0, -1, 100],
          [1, 0, 1000],
          [2, 1, 10_000],
        ] as const) {
          await database.db
            .updateTable('loyalty_events')
            .set({ occurred_at: new Date(since.getTime() + offset), points })
            .where('id', '=', entries[k]!.id)
            .execute();
        }
        const [read] = await q.memberReads([{ customerId: id, forecast: true }]);
        expect([tierDate, read!.forecast?.tierWindowPoints]).toEqual([
          tierDate,
          (await q.collectedInWindows([{ customerId: id, since }]))[0],
        ]);
        expect(read!.forecast?.tierWindowPoints).toBe(10_000);
      }
    } finally {
      // The member's entries as beforeAll left them (the other tests read them).
      for (const [k, points] of [10, 11, 12].entries())
        await database.db
          .updateTable('loyalty_events')
          .set({ occurred_at: new Date(), points })
          .where('id', '=', entries[k]!.id)
          .execute();
      await database.db
        .updateTable('loyalty_accounts')
        .set({ tier_expiration_date: null })
        .where('customer_id', '=', id)
        .execute();
    }
  });

  it('expire what is due for members visiting at once, each once, in one transaction', async () => {
    const t0 = new Date('2025-01-10T00:00:00Z');
    const due = await customersWithLotsDue(3, t0);
    const now = new Date(addMonths(t0, 12).getTime() + 60_000);
    const { service, statements } = countingService();
    const together = await Promise.all(due.map((id) => service.tierDetails(id, now)));
    expect(together.map((d) => d.points)).toEqual([5, 5, 5]);
    const history = await service.history(due[1]!, 0, 10, now);
    const forecast = await service.expiryForecast(due[2]!, { now });
    expect(forecast.nextExpiry?.points).toBe(5);
    expect(history.content.map((entry) => [entry.type, entry.points])).toEqual([
      ['expiry', -41],
      ['rental-completed', 5],
      ['rental-completed', 41],
    ]);
    // Three visits alone would each read, then lock, load and write in a transaction of their own, and
    // read again; together it is one read, one transaction's statements and one read.
    expect(statements()).toBeLessThan(15);
  });

  it('expire members visiting milliseconds apart in one transaction, each what was due (decision 0060)', async () => {
    const t0 = new Date('2025-02-10T00:00:00Z');
    const due = await customersWithLotsDue(4, t0);
    const dueAt = addMonths(t0, 12).getTime();
    const { service } = countingService();
    // Each request reads its own clock: the moments differ by a millisecond or two.
    const details = await Promise.all(
      due.map((id, i) => service.tierDetails(id, new Date(dueAt + 60_000 + i))),
    );
    expect(details.map((d) => d.points)).toEqual([5, 5, 5, 5]);
    expect(new Set(await expiryRecordedAt(due)).size).toBe(1);
    const history = await service.history(due[3]!, 0, 10, new Date(dueAt + 120_000));
    expect(history.content.map((entry) => [entry.type, entry.points])).toEqual([
      ['expiry', -43],
      ['rental-completed', 5],
      ['rental-completed', 43],
    ]);
  });

  it('fail every caller of a failed statement, and the next reads work', async () => {
    const failNext = { on: false };
    const { service } = countingService(failNext);
    failNext.on = true;
    const failed = await Promise.allSettled(members.map((id) => service.tierDetails(id)));
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    const again = await Promise.all(members.map((id) => service.tierDetails(id)));
    expect(again.map((d) => d.points)).toEqual([33, 135, 306, 546]);
  });
});

// Prepared statements are PostgreSQL's (PGlite runs in the process: nothing to plan once per connection).
if (testDbTarget() === 'postgres')
  describe("members' reads on a PostgreSQL server", () => {
    it('expire each lot once when two instances take the same members with lots due at once', async () => {
      const t0 = new Date('2025-04-10T00:00:00Z');
      const due = await customersWithLotsDue(6, t0);
      const now = new Date(addMonths(t0, 12).getTime() + 60_000);
      // A second instance: its own pool on the same database, and its own lane.
      const other = await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 5 });
      try {
        const first = createLoyaltyService({ db: database.db, content });
        const second = createLoyaltyService({ db: other, content });
        const answers = await Promise.all(
          due.flatMap((id, i) => [
            first.tierDetails(id, new Date(now.getTime() + i)),
            second.tierDetails(id, now),
          ]),
        );
        expect(answers.map((d) => d.points)).toEqual(due.flatMap(() => [5, 5]));
        // One expiry entry per customer (expiryRecordedAt checks it), whichever instance wrote it.
        expect(await expiryRecordedAt(due)).toHaveLength(6);
      } finally {
        await other.destroy();
      }
    });

    it("expire a member whose account another transaction holds after it, without holding up the others' expiry", async () => {
      const t0 = new Date('2025-03-10T00:00:00Z');
      const [held, free] = await customersWithLotsDue(2, t0);
      const now = new Date(addMonths(t0, 12).getTime() + 60_000);
      const { service } = countingService();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // An event batch, say, holding the account's lock (decision 0006: every ledger change takes it).
      const holder = database.db.transaction().execute(async (tx) => {
        await tx
          .selectFrom('loyalty_accounts')
          .select('customer_id')
          .where('customer_id', '=', held!)
          .forUpdate()
          .execute();
        locked();
        await released;
      });
      await isLocked;
      let heldAnswered = false;
      const heldVisit = service.tierDetails(held!, now).then((d) => ((heldAnswered = true), d));
      const freeVisit = await service.tierDetails(free!, now);
      expect(freeVisit.points).toBe(5);
      expect(heldAnswered).toBe(false);
      release();
      await holder;
      expect((await heldVisit).points).toBe(5);
      expect(await expiryRecordedAt([held!, free!])).toHaveLength(2);
    });

    it('are prepared statements, planned once per connection: the tier details, a history page and the forecast', async () => {
      // Decision 0051. The history page's and the forecast's reads multiply (page bounds, epoch
      // milliseconds); they went unprepared while any `*` counted as every column, and were planned at
      // every call (29 Nov 2026).
      const app = await openDatabase({
        databaseUrl: database.url,
        dataDir: '',
        poolSize: 1,
        preparedStatements: true,
      });
      try {
        for (const ask of [{}, { page: { index: 0, size: 2 } }, { forecast: true }]) {
          const [read] = await loyaltyQueries(app).memberReads([{ customerId: members[0]!, ...ask }]);
          expect(read?.state?.account?.balance).toBe(33);
        }
        const statements = (
          await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(app)
        ).rows.map((r) => r.statement);
        const memberReads = statements.filter((s) => s.includes('as tier_window_points'));
        expect(memberReads).toHaveLength(3);
        expect(memberReads.filter((s) => s.includes('string_agg'))).toHaveLength(1);
        expect(memberReads.filter((s) => s.includes('json_build_array'))).toHaveLength(1);
      } finally {
        await app.destroy();
      }
    });
  });
