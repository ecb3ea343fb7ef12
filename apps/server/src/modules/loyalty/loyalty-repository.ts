import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { LOYALTY_VALIDITY_MONTHS, type LoyaltyEventType, type TierSlug } from '@roadpass/contracts';
import type { Database } from '../../db/schema.js';
import type { LoyaltyEventTable } from '../../db/schema-loyalty.js';
import { isLoyaltyMemberSql, loyaltyMemberships } from '../consents/index.js';
import type { Lot } from './loyalty-rules.js';
import { isCustomerId } from '../../lib/customer-id.js';
import { batchArray } from '../../db/batch-array.js';

/** The database or a transaction: every query here runs on either. */
type Executor = Kysely<Database>;

export interface LoyaltyAccount {
  customerId: string;
  balance: number;
  tier: TierSlug;
  tierExpirationDate: Date | null;
  eventCount: number;
  updatedAt: Date;
}

export type LedgerRow = Omit<Selectable<LoyaltyEventTable>, 'id'> & { id: string };

export interface NewLedgerRow {
  customer_id: string;
  seq: number;
  source_id: string;
  type: LoyaltyEventType;
  points: number;
  occurred_at: Date;
  expires_at: Date | null;
  remaining_points: number;
  description: string;
  tier_after: TierSlug;
}

/** What a member's calls answer from (memberReads below). */
export interface MemberStateRow {
  member: boolean;
  account: LoyaltyAccount | undefined;
  dueAt: Date | null;
}

/**
 * One ask of memberReads: a customer's state, and read with it one history page (`page`) or what
 * the expiry forecast needs (`forecast`).
 */
export interface MemberReadAsk {
  customerId: string;
  page?: { index: number; size: number };
  forecast?: boolean;
}

/**
 * What the expiry forecast reads: the open lots, summed per UTC day at that day's earliest expiry
 * (what expiryForecast counts by), and the points of the tier's qualifying window.
 */
export interface ForecastReads {
  lots: Pick<Lot, 'remaining' | 'expiresAt'>[];
  /** Points collected in the 12 months before the tier's date (0 without a tier date). */
  tierWindowPoints: number;
}

/**
 * memberReads' answer to one ask: `state` undefined for an unknown customer; `page` and `forecast`
 * null when not asked for or when the customer has no account.
 */
export interface MemberRead {
  state: MemberStateRow | undefined;
  page: string | null;
  forecast: ForecastReads | null;
}

export interface PartnerCodeRow {
  slug: string;
  code: string;
  createdAt: Date;
}

const accountColumns = [
  'customer_id',
  'balance',
  'tier',
  'tier_expiration_date',
  'event_count',
  'updated_at',
] as const;

interface AccountRow {
  customer_id: string;
  balance: number;
  tier: TierSlug;
  tier_expiration_date: Date | null;
  event_count: number;
  updated_at: Date;
}

function toAccount(row: AccountRow): LoyaltyAccount {
  return {
    customerId: row.customer_id,
    balance: Number(row.balance),
    tier: row.tier,
    tierExpirationDate: row.tier_expiration_date,
    eventCount: Number(row.event_count),
    updatedAt: row.updated_at,
  };
}

/**
 * The loyalty SQL, nothing else: no rules here (they are in loyalty-rules.ts) and no transaction
 * handling (the service opens one and hands it in). The statements of a batch take all its customers
 * at once: arrays bound as one parameter each (`= any(…)`, `unnest(…)`), so their text does not grow
 * with the batch (nor meets PostgreSQL's limit of 65 535 bind parameters).
 */
export function loyaltyQueries(db: Executor) {
  const insertRows = (rows: readonly NewLedgerRow[], returning: boolean) => {
    const column = <K extends keyof NewLedgerRow>(key: K) => rows.map((row) => row[key]);
    return sql<{ id: string | number; customer_id: string; seq: number }>`
      insert into loyalty_events (customer_id, seq, source_id, type, points, occurred_at, expires_at,
        remaining_points, description, tier_after)
      select * from unnest(
        ${column('customer_id')}::uuid[], ${column('seq')}::integer[], ${column('source_id')}::varchar[],
        ${column('type')}::varchar[], ${column('points')}::integer[], ${column('occurred_at')}::timestamptz[],
        ${column('expires_at')}::timestamptz[], ${column('remaining_points')}::integer[],
        ${column('description')}::varchar[], ${column('tier_after')}::varchar[]
      )
      ${returning ? sql`returning id, customer_id, seq` : sql``}`.execute(db);
  };

  /**
   * The JSON text of one history page: the entries of `customer` with low < seq <= high, newest
   * first, as LoyaltyHistoryEntry objects ('[]' when there are none): an index range on
   * (customer_id, seq), as a scalar subquery of memberReads. One JSON text built by the database,
   * because PGlite hands rows over value by value through WebAssembly: one text costs half as much as
   * 100 rows. Members' calls pass it through as it is.
   */
  const historyEntriesJson = (
    customer: RawBuilder<unknown>,
    low: RawBuilder<unknown>,
    high: RawBuilder<unknown>,
  ) => {
    const iso = (column: string) =>
      sql`to_char(${sql.ref(`e.${column}`)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    // Written by concatenation in the contract's key order, not by json_build_object, which costs
    // PostgreSQL more (docs/performance.md#history-json-text). The id, points and type need no escaping
    // (numbers, and the words the table's check allows); the tier and the description go through
    // to_json.
    return sql<string>`coalesce((
      select '[' || string_agg('{"id":"' || e.id || '","type":"' || e.type || '","points":' || e.points
        || ',"tier":' || to_json(e.tier_after) || ',"occurredAt":"' || ${iso('occurred_at')}
        || '","expirationDate":' || coalesce('"' || ${iso('expires_at')} || '"', 'null')
        || ',"description":' || to_json(e.description) || '}', ',' order by e.seq desc) || ']'
      from loyalty_events e
      where e.customer_id = ${customer} and e.seq > ${low} and e.seq <= ${high}
    ), '[]')`;
  };

  /**
   * In one read without locks, for any number of asks, what a member's calls answer from: whether
   * the customer exists and is a member (isLoyaltyMemberSql), their account if they have one, the
   * first moment something of it falls due (the earliest open lot's expiry or the tier's date; null
   * when nothing ever will); with `page`, that history page as the account stands (page k of size s:
   * seq in (N-(k+1)·s, N-k·s] of the N entries); with `forecast`, the open lots and the points
   * collected in the tier's qualifying window (qualifyingWindowStart: the tier's date less
   * LOYALTY_VALIDITY_MONTHS, as the ledger counts them for the tier, collectedInWindows). An unknown
   * customer's `state` is undefined. The page and the forecast's reads are only what the member sees
   * when nothing is due: the caller checks `dueAt`.
   */
  async function memberReads(asks: readonly MemberReadAsk[]): Promise<MemberRead[]> {
    const answers: MemberRead[] = asks.map(() => ({ state: undefined, page: null, forecast: null }));
    const valid = asks.flatMap((ask, i) => (isCustomerId(ask.customerId) ? [{ ask, i }] : []));
    if (valid.length === 0) return answers;
    const ids = valid.map((v) => v.ask.customerId.toLowerCase());
    const pageIndexes = valid.map((v) => v.ask.page?.index ?? 0);
    const pageSizes = valid.map((v) => v.ask.page?.size ?? 0);
    const withForecast = valid.map((v) => v.ask.forecast === true);
    // Only what the batch asks for is in the statement: each subquery would be planned at every call.
    const pages = pageSizes.some((size) => size > 0);
    const forecasts = withForecast.includes(true);
    const pageColumn = sql`case when r.size > 0 and a.customer_id is not null then ${historyEntriesJson(
      sql`c.id`,
      sql`a.event_count - (r.index + 1) * r.size`,
      sql`a.event_count - r.index * r.size`,
    )} end`;
    // The open lots summed per UTC day, at the day's earliest expiry: all the forecast counts (its
    // months and nearest day are UTC), at most a year of days however many lots a member has.
    const openLotsColumn = sql`case when r.forecast and a.customer_id is not null then (
      select json_agg(json_build_array(d.remaining, d.first_ms) order by d.first_ms)
      from (
        select sum(e.remaining_points) as remaining,
          (extract(epoch from min(e.expires_at)) * 1000)::int8 as first_ms
        from loyalty_events e where e.customer_id = c.id and e.remaining_points > 0
        group by (e.expires_at at time zone 'UTC')::date
      ) d
    )::text end`;
    const tierWindowColumn = sql`case when r.forecast and a.tier_expiration_date is not null then (
      select coalesce(sum(e.points), 0) from loyalty_events e
      where e.customer_id = c.id and e.type <> 'expiry' and e.occurred_at > ((a.tier_expiration_date
        at time zone 'UTC') - make_interval(months => ${LOYALTY_VALIDITY_MONTHS})) at time zone 'UTC'
    ) end`;
    const { rows } = await sql<
      AccountRow & {
        n: string | number;
        member: boolean;
        first_lot_expiry: Date | string | null;
        page: string | null;
        open_lots: string | null;
        tier_window_points: string | number | null;
      }
    >`
      select r.n, ${isLoyaltyMemberSql(sql.ref('c.id'))} as member,
        ${sql.join(accountColumns.map((c) => sql.ref(`a.${c}`)))},
        (select min(e.expires_at) from loyalty_events e
          where e.customer_id = c.id and e.remaining_points > 0) as first_lot_expiry,
        ${pages ? pageColumn : sql`null::text`} as page,
        ${forecasts ? openLotsColumn : sql`null::text`} as open_lots,
        ${forecasts ? tierWindowColumn : sql`null::int8`} as tier_window_points
      from unnest(
        ${batchArray(ids, 'uuid')}, ${batchArray(pageIndexes, 'int8')}, ${batchArray(pageSizes, 'int8')},
        ${batchArray(withForecast, 'boolean')}
      ) with ordinality as r(customer_id, index, size, forecast, n)
      join customers c on c.id = r.customer_id
      left join loyalty_accounts a on a.customer_id = c.id`.execute(db);
    for (const row of rows) {
      const { ask, i } = valid[Number(row.n) - 1]!;
      const account = row.customer_id === null ? undefined : toAccount(row);
      const dues = [row.first_lot_expiry, account?.tierExpirationDate]
        .filter((d): d is Date | string => d instanceof Date || typeof d === 'string')
        .map((d) => new Date(d).getTime());
      const lots = JSON.parse(row.open_lots ?? '[]') as [remaining: number, expiresAtMs: number][];
      answers[i] = {
        state: {
          member: row.member === true,
          account,
          dueAt: dues.length > 0 ? new Date(Math.min(...dues)) : null,
        },
        page: row.page,
        forecast:
          ask.forecast === true && account
            ? {
                lots: lots.map(([remaining, at]) => ({ remaining, expiresAt: new Date(at) })),
                tierWindowPoints: Number(row.tier_window_points ?? 0),
              }
            : null,
      };
    }
    return answers;
  }

  return {
    async findAccount(customerId: string): Promise<LoyaltyAccount | undefined> {
      const row = await db
        .selectFrom('loyalty_accounts')
        .select(accountColumns)
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row && toAccount(row);
    },

    /** The account, created at the entry tier with 0 points when the member has none yet. */
    async ensureAccount(customerId: string): Promise<LoyaltyAccount> {
      await db
        .insertInto('loyalty_accounts')
        .values({ customer_id: customerId })
        .onConflict((oc) => oc.column('customer_id').doNothing())
        .execute();
      const row = await db
        .selectFrom('loyalty_accounts')
        .select(accountColumns)
        .where('customer_id', '=', customerId)
        .executeTakeFirstOrThrow();
      return toAccount(row);
    },

    /** Of these ids, the customers that exist, each with whether they are loyalty members. */
    memberships: (customerIds: readonly string[]) => loyaltyMemberships(db, customerIds),

    /**
     * The accounts of these customers, created if missing, locked until the transaction ends: every
     * change to a customer's ledger goes through this lock, so sequence numbers stay dense and
     * concurrent batches cannot interleave. Rows are taken in customer id order, the same in every
     * transaction and instance, so two batches for overlapping customers wait for each other instead
     * of deadlocking. (An upsert that touches the row takes the lock in the same round trip.) Also
     * answers the transaction's time, which the database stamps on the entries it records.
     */
    async lockAccounts(
      customerIds: readonly string[],
    ): Promise<{ accounts: LoyaltyAccount[]; transactionTime: Date }> {
      const { rows } = await sql<AccountRow & { transaction_time: Date }>`
        insert into loyalty_accounts (customer_id)
        select id from unnest(${[...new Set(customerIds)]}::uuid[]) as k(id) order by id
        on conflict (customer_id) do update set customer_id = excluded.customer_id
        returning ${sql.join(accountColumns.map((c) => sql.ref(c)))}, now() as transaction_time`.execute(db);
      return { accounts: rows.map(toAccount), transactionTime: rows[0]?.transaction_time ?? new Date() };
    },

    /**
     * The expiry job's lock (decision 0045): of these customers' existing accounts, those no other
     * transaction holds, locked until the transaction ends, in customer id order. Rows another
     * transaction holds (a batch of events, a member's visit that expires, a second run of the job)
     * are skipped instead of waited for, so a batch of hundreds of customers never queues behind one
     * of them and two runs split the work; the job comes back to the skipped ones afterwards. Never
     * waiting, it cannot deadlock with the batches that wait in the same order. The transaction's
     * time is undefined when nothing was locked.
     */
    async lockFreeAccounts(
      customerIds: readonly string[],
    ): Promise<{ accounts: LoyaltyAccount[]; transactionTime: Date | undefined }> {
      const { rows } = await sql<AccountRow & { transaction_time: Date }>`
        select ${sql.join(accountColumns.map((c) => sql.ref(c)))}, now() as transaction_time
        from loyalty_accounts
        where customer_id = any(${[...new Set(customerIds)]}::uuid[])
        order by customer_id
        for update skip locked`.execute(db);
      return { accounts: rows.map(toAccount), transactionTime: rows[0]?.transaction_time };
    },

    /** The accounts' new state, in one statement. */
    async saveAccounts(accounts: readonly LoyaltyAccount[]): Promise<void> {
      if (accounts.length === 0) return;
      const column = <T>(pick: (a: LoyaltyAccount) => T) => accounts.map(pick);
      await sql`
        update loyalty_accounts a set
          balance = v.balance, tier = v.tier, tier_expiration_date = v.tier_expiration_date,
          event_count = v.event_count, updated_at = v.updated_at
        from unnest(
          ${column((a) => a.customerId)}::uuid[], ${column((a) => a.balance)}::integer[],
          ${column((a) => a.tier)}::varchar[], ${column((a) => a.tierExpirationDate)}::timestamptz[],
          ${column((a) => a.eventCount)}::integer[], ${column((a) => a.updatedAt)}::timestamptz[]
        ) as v(customer_id, balance, tier, tier_expiration_date, event_count, updated_at)
        where a.customer_id = v.customer_id`.execute(db);
    },

    /** Entries with these (customer, source id) pairs, found by the unique index on the pair. */
    async entriesBySource(
      pairs: readonly { customerId: string; sourceId: string }[],
    ): Promise<Pick<LedgerRow, 'customer_id' | 'source_id' | 'type' | 'points' | 'recorded_at'>[]> {
      if (pairs.length === 0) return [];
      const { rows } = await sql<
        Pick<LedgerRow, 'customer_id' | 'source_id' | 'type' | 'points' | 'recorded_at'>
      >`
        select e.customer_id, e.source_id, e.type, e.points, e.recorded_at
        from unnest(${pairs.map((p) => p.customerId)}::uuid[], ${pairs.map((p) => p.sourceId)}::varchar[])
          as k(customer_id, source_id)
        join loyalty_events e on e.customer_id = k.customer_id and e.source_id = k.source_id`.execute(db);
      return rows.map((row) => ({ ...row, points: Number(row.points) }));
    },

    /** Appends entries in one statement (one array per column, however many rows). */
    async insertEntries(rows: readonly NewLedgerRow[]): Promise<void> {
      if (rows.length > 0) await insertRows(rows, false);
    },

    /** Appends entries and answers the id given to each, by `${customer_id}:${seq}`. */
    async insertEntriesReturningIds(rows: readonly NewLedgerRow[]): Promise<Map<string, string>> {
      if (rows.length === 0) return new Map();
      const { rows: inserted } = await insertRows(rows, true);
      return new Map(inserted.map((row) => [`${row.customer_id}:${row.seq}`, String(row.id)]));
    },

    /**
     * Lots with points left, per customer expiring first and then in ledger order (the partial index
     * on open lots serves both parts): for `dueOnly` customers those expired by `dueBy`, for `all`
     * customers every one.
     */
    async openLots(
      dueOnly: readonly string[],
      all: readonly string[],
      dueBy: Date,
    ): Promise<(Lot & { customerId: string; description: string })[]> {
      const lots = (ids: readonly string[]) =>
        db
          .selectFrom('loyalty_events')
          .select(['customer_id', 'id', 'seq', 'remaining_points', 'expires_at', 'description'])
          .where(sql<boolean>`customer_id = any(${[...ids]}::uuid[])`)
          .where('remaining_points', '>', 0);
      const due = dueOnly.length > 0 ? lots(dueOnly).where('expires_at', '<=', dueBy) : undefined;
      const every = all.length > 0 ? lots(all) : undefined;
      const query = due && every ? due.unionAll(every) : (due ?? every);
      if (!query) return [];
      const rows = await query.orderBy('customer_id').orderBy('expires_at').orderBy('seq').execute();
      return rows.map((r) => ({
        customerId: r.customer_id,
        id: String(r.id),
        remaining: Number(r.remaining_points),
        expiresAt: r.expires_at!,
        description: r.description,
      }));
    },

    /** New remainders of lots (points used or expired), in one statement. */
    async setRemaining(changes: readonly { id: string; remaining: number }[]): Promise<void> {
      if (changes.length === 0) return;
      await sql`
        update loyalty_events e set remaining_points = v.remaining
        from unnest(${changes.map((c) => c.id)}::bigint[], ${changes.map((c) => c.remaining)}::integer[])
          as v(id, remaining)
        where e.id = v.id`.execute(db);
    },

    /**
     * The account and whether anything is due at `now` (a lot to expire, or the tier's date), in one
     * read without locks: the cheap check before answering a member.
     */
    async accountWithDueCheck(
      customerId: string,
      now: Date,
    ): Promise<{ account: LoyaltyAccount; due: boolean } | undefined> {
      const row = await db
        .selectFrom('loyalty_accounts as a')
        .select(accountColumns.map((c) => `a.${c}` as const))
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('loyalty_events as e')
                .select('e.id')
                .whereRef('e.customer_id', '=', 'a.customer_id')
                .where('e.remaining_points', '>', 0)
                .where('e.expires_at', '<=', now),
            )
            .as('lots_due'),
        )
        .where('a.customer_id', '=', customerId)
        .executeTakeFirst();
      if (!row) return undefined;
      const account = toAccount(row);
      const tierDue =
        account.tierExpirationDate !== null && account.tierExpirationDate.getTime() <= now.getTime();
      return { account, due: Boolean(row.lots_due) || tierDue };
    },

    /**
     * Of these customers, those with lots or a tier due at `now`: the finder below on a few ids, by
     * the open-lots index per customer and the accounts' primary key.
     */
    async dueAmong(customerIds: readonly string[], now: Date): Promise<string[]> {
      if (customerIds.length === 0) return [];
      const { rows } = await sql<{ customer_id: string }>`
        select a.customer_id from loyalty_accounts a
        where a.customer_id = any(${[...customerIds]}::uuid[])
          and (a.tier_expiration_date <= ${now}
            or exists (select 1 from loyalty_events e
                       where e.customer_id = a.customer_id and e.remaining_points > 0 and e.expires_at <= ${now}))
        order by a.customer_id`.execute(db);
      return rows.map((r) => r.customer_id);
    },

    /** Everyone with lots or a tier due at `now`. */
    async customersWithDueWork(now: Date): Promise<string[]> {
      const rows = await db
        .selectFrom('loyalty_events')
        .select('customer_id')
        .where('remaining_points', '>', 0)
        .where('expires_at', '<=', now)
        .union(
          db.selectFrom('loyalty_accounts').select('customer_id').where('tier_expiration_date', '<=', now),
        )
        .execute();
      return rows.map((r) => r.customer_id);
    },

    memberReads,

    /**
     * Points each customer collected since their own moment (exclusive), in the order asked: every
     * event but expiry, signed, as the tier counts them (0 without any): the tier's qualifying window
     * of an event batch's customers (memberReads counts the forecast's in its own statement). One
     * statement for any number of windows.
     */
    async collectedInWindows(windows: readonly { customerId: string; since: Date }[]): Promise<number[]> {
      if (windows.length === 0) return [];
      const { rows } = await sql<{ total: string | number | null }>`
        select (
          select sum(e.points) from loyalty_events e
          where e.customer_id = w.customer_id and e.occurred_at > w.since and e.type <> 'expiry'
        ) as total
        from unnest(
          ${windows.map((w) => w.customerId)}::uuid[], ${windows.map((w) => w.since)}::timestamptz[]
        ) with ordinality as w(customer_id, since, n)
        order by w.n`.execute(db);
      return rows.map((row) => Number(row.total ?? 0));
    },

    async findPartnerCode(customerId: string, slug: string): Promise<PartnerCodeRow | undefined> {
      const row = await db
        .selectFrom('loyalty_partner_codes')
        .select(['slug', 'code', 'created_at'])
        .where('customer_id', '=', customerId)
        .where('slug', '=', slug)
        .executeTakeFirst();
      return row && { slug: row.slug, code: row.code, createdAt: row.created_at };
    },

    /** Inserts the code unless the customer has one for the slug (or the code is taken); true when inserted. */
    async insertPartnerCode(customerId: string, slug: string, code: string): Promise<boolean> {
      const inserted = await db
        .insertInto('loyalty_partner_codes')
        .values({ customer_id: customerId, slug, code })
        .onConflict((oc) => oc.doNothing())
        .returning('code')
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };
}

export type LoyaltyQueries = ReturnType<typeof loyaltyQueries>;
