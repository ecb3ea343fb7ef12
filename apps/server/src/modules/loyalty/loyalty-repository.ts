import { sql, type Kysely, type Selectable } from 'kysely';
import type { LoyaltyEventType, LoyaltyHistoryEntry, TierSlug } from '@roadpass/contracts';
import type { Database } from '../../db/schema.js';
import type { LoyaltyEventTable } from '../../db/schema-loyalty.js';
import type { Lot } from './loyalty-rules.js';

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

function toAccount(row: {
  customer_id: string;
  balance: number;
  tier: TierSlug;
  tier_expiration_date: Date | null;
  event_count: number;
  updated_at: Date;
}): LoyaltyAccount {
  return {
    customerId: row.customer_id,
    balance: Number(row.balance),
    tier: row.tier,
    tierExpirationDate: row.tier_expiration_date,
    eventCount: Number(row.event_count),
    updatedAt: row.updated_at,
  };
}

const toLedgerRow = <T extends { id: string | number }>(row: T) => ({ ...row, id: String(row.id) });

/**
 * The loyalty SQL, nothing else: no rules here (they are in loyalty-rules.ts) and no transaction
 * handling (the service opens one and hands it in). Large inserts are chunked below PostgreSQL's
 * 65 535 bind parameters.
 */
export function loyaltyQueries(db: Executor) {
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

    /**
     * The account row, created if missing, locked until the transaction ends: every change to one
     * customer's ledger goes through this lock, so sequence numbers stay dense and concurrent events
     * cannot interleave. (An upsert that touches the row takes the lock in the same round trip.)
     */
    async lockAccount(customerId: string): Promise<LoyaltyAccount> {
      const row = await db
        .insertInto('loyalty_accounts')
        .values({ customer_id: customerId })
        .onConflict((oc) =>
          oc.column('customer_id').doUpdateSet({ customer_id: (eb) => eb.ref('excluded.customer_id') }),
        )
        .returning(accountColumns)
        .executeTakeFirstOrThrow();
      return toAccount(row);
    },

    async saveAccount(account: LoyaltyAccount): Promise<void> {
      await db
        .updateTable('loyalty_accounts')
        .set({
          balance: account.balance,
          tier: account.tier,
          tier_expiration_date: account.tierExpirationDate,
          event_count: account.eventCount,
          updated_at: account.updatedAt,
        })
        .where('customer_id', '=', account.customerId)
        .execute();
    },

    async findBySource(customerId: string, sourceId: string): Promise<LedgerRow | undefined> {
      const row = await db
        .selectFrom('loyalty_events')
        .selectAll()
        .where('customer_id', '=', customerId)
        .where('source_id', '=', sourceId)
        .executeTakeFirst();
      return row && toLedgerRow(row);
    },

    async insertEntries(rows: readonly NewLedgerRow[]): Promise<void> {
      const CHUNK = 2000;
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('loyalty_events')
          .values(rows.slice(i, i + CHUNK))
          .execute();
      }
    },

    /**
     * Lots with points left, oldest first (the partial index on open lots serves it): all of them for
     * FIFO, or with `expiredBy` only those whose points have expired by then.
     */
    async openLots(customerId: string, expiredBy?: Date): Promise<(Lot & { description: string })[]> {
      let query = db
        .selectFrom('loyalty_events')
        .select(['id', 'remaining_points', 'expires_at', 'description'])
        .where('customer_id', '=', customerId)
        .where('remaining_points', '>', 0);
      if (expiredBy) query = query.where('expires_at', '<=', expiredBy);
      const rows = await query.orderBy('expires_at').orderBy('seq').execute();
      return rows.map((r) => ({
        id: String(r.id),
        remaining: Number(r.remaining_points),
        expiresAt: r.expires_at!,
        description: r.description,
      }));
    },

    async setRemaining(changes: readonly { id: string; remaining: number }[]): Promise<void> {
      for (const change of changes) {
        await db
          .updateTable('loyalty_events')
          .set({ remaining_points: change.remaining })
          .where('id', '=', change.id)
          .execute();
      }
    },

    /** Sets the lots to 0 points left (they expired). */
    async emptyLots(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable('loyalty_events').set({ remaining_points: 0 }).where('id', 'in', ids).execute();
    },

    /** Points collected since `since` (exclusive): every event but expiry, signed, as the tier counts them. */
    async collectedSince(customerId: string, since: Date): Promise<number> {
      const row = await db
        .selectFrom('loyalty_events')
        .select(sql<string | number | null>`sum(points)`.as('total'))
        .where('customer_id', '=', customerId)
        .where('occurred_at', '>', since)
        .where('type', '<>', 'expiry')
        .executeTakeFirst();
      return Number(row?.total ?? 0);
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

    /**
     * History entries with seq in (lowExclusive, highInclusive], newest first: an index range on
     * (customer_id, seq). The page comes back as one JSON text built by the database, because PGlite
     * hands rows over value by value through WebAssembly: one text costs half as much as 100 rows.
     */
    async historyEntries(
      customerId: string,
      lowExclusive: number,
      highInclusive: number,
    ): Promise<LoyaltyHistoryEntry[]> {
      const iso = (column: 'occurred_at' | 'expires_at') =>
        sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      const row = await db
        .selectFrom('loyalty_events')
        .select(
          sql<string>`coalesce(json_agg(json_build_object(
            'id', id::text,
            'type', type,
            'points', points,
            'tier', tier_after,
            'occurredAt', ${iso('occurred_at')},
            'expirationDate', ${iso('expires_at')},
            'description', description
          ) order by seq desc), '[]')::text`.as('page'),
        )
        .where('customer_id', '=', customerId)
        .where('seq', '>', lowExclusive)
        .where('seq', '<=', highInclusive)
        .executeTakeFirstOrThrow();
      return JSON.parse(row.page) as LoyaltyHistoryEntry[];
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
