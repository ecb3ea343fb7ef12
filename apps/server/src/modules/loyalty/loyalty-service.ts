import type {
  LoyaltyExpiryForecast,
  LoyaltyEventInput,
  LoyaltyEventOutcome,
  LoyaltyHistoryPage,
  LoyaltyTierDetails,
  TierSlug,
} from '@roadpass/contracts';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import type { InvalidatingCache } from '../../lib/invalidating-cache.js';
import { batchPerTurn, batchWhileBusy } from '../../lib/batch-per-turn.js';
import type { LoyaltyContent, RewardRule } from '../content/index.js';
import {
  createLedgerBatch,
  customerKey,
  refusedOutcome,
  type CustomerExpiry,
  type CustomerLedger,
  type LedgerBatch,
} from './ledger-batch.js';
import {
  loyaltyQueries,
  type LoyaltyAccount,
  type LoyaltyQueries,
  type MemberRead,
  type MemberReadAsk,
  type MemberStateRow,
  type PartnerCodeRow,
} from './loyalty-repository.js';
import { expirySourceId, qualifyingWindowStart, systemClock, tierRank, type Clock } from './loyalty-rules.js';
import { loyaltyErrors } from './loyalty-errors.js';
import { expiryForecast } from './expiry-forecast.js';
import { generatePartnerCode } from './partner-code.js';

export type { CustomerExpiry };

export interface ExpiryTotals {
  customers: number;
  lots: number;
  points: number;
  tiersRecomputed: number;
  tiersLowered: number;
}

export type PartnerRewardCheck =
  | { ok: true; rule: RewardRule }
  | { ok: false; reason: 'unknown-reward' }
  | { ok: false; reason: 'not-partner-reward' }
  | { ok: false; reason: 'locked'; tierNeeded: TierSlug; tier: TierSlug };

export interface LoyaltyServiceDeps {
  db: Db;
  content: LoyaltyContent;
  clock?: Clock;
  /** The instance's loyalty read cache (decision 0011); without it every member call reads the database. */
  cache?: InvalidatingCache<unknown>;
}

/** What a member's calls answer from, as of a moment: see `memberState`. */
export interface MemberState {
  details: LoyaltyTierDetails;
  /** `details` as JSON, made once for every call it answers. */
  detailsJson: string;
  eventCount: number;
  /** The state holds until this moment (ms since the epoch): then something falls due. */
  validUntil: number;
}

/**
 * Entries per INSERT. Embedded PGlite runs in its own thread (decision 0012), but it has one session:
 * a statement of 500 rows held it for 15–100 ms on a shared 2-core machine, 100 rows a fifth of that,
 * and the queries of other requests wait for the batch's transaction anyway; smaller statements also
 * keep this thread's share (parameters out, rows in) in short pieces. On PostgreSQL the extra round
 * trips cost well under a millisecond each.
 */
const INSERT_CHUNK = 100;

/**
 * Customers per transaction of the expiry job (decision 0045): a few statements for all of them
 * (lock, open lots, tier points, inserts of INSERT_CHUNK rows, remainders, accounts) instead of that
 * many per customer, while the transaction stays short enough that a member's visit or a batch of
 * events waiting for one of these customers' locks waits for one batch's statements at most.
 */
export const EXPIRY_BATCH_CUSTOMERS = 250;

/** Asks for expiry whose moments are at most this far apart (ms) are expired together at the latest. */
const EXPIRY_MOMENTS_APART = 1000;

const NOTHING_EXPIRED: CustomerExpiry = { lots: 0, points: 0, tierRecomputed: false, tierLowered: false };

/** How a transaction takes its customers' account locks: wait in id order, or skip the rows others hold. */
type LockMode = 'wait' | 'skip-locked';

/**
 * The loyalty ledger's use cases: applying events, expiry, and what a member reads. Every change to
 * a customer's ledger happens in one transaction holding that customer's account row lock: a batch
 * locks all its customers' accounts, in customer id order, loads what it needs of their ledgers with
 * a few statements, computes every event in memory in batch order (ledger-batch.ts, with the pure
 * rules of loyalty-rules.ts) and writes the result with a few multi-row statements. One event, and
 * one customer's expiry, are batches of one: there is one code path.
 */
export function createLoyaltyService({ db, content, clock = systemClock, cache }: LoyaltyServiceDeps) {
  /** After a ledger or account write commits: this process's caches drop those customers at once. */
  const changed = (customerIds: string | readonly string[]) =>
    changeNotices(db).publish('loyalty', customerIds);

  /**
   * A member's reads, those of one turn of the event loop together: one statement for every member
   * asking at once (decision 0054). The service runs on the pool, never inside a transaction.
   */
  const readMember = batchPerTurn<MemberReadAsk, MemberRead>((asks) => loyaltyQueries(db).memberReads(asks));

  /**
   * Locks the accounts of `customerIds` (created if missing) and loads what applying `events` to
   * them at `now` needs: the entries the events' source ids already have; open lots (those due at
   * `now`, and all of them for customers with negative events); and the points the tier counts, for
   * customers whose tier is due or who may record an event. With `skip-locked` (the expiry job) only
   * existing accounts no other transaction holds are locked and loaded: the others are missing from
   * the answer.
   */
  async function loadLedgers(
    q: LoyaltyQueries,
    customerIds: readonly string[],
    events: readonly LoyaltyEventInput[],
    now: Date,
    lockMode: LockMode = 'wait',
  ): Promise<{ ledgers: Map<string, CustomerLedger>; recordedAt: Date }> {
    const keys = customerIds.map(customerKey);
    const locked = lockMode === 'wait' ? await q.lockAccounts(keys) : await q.lockFreeAccounts(keys);
    const accounts = locked.accounts;
    const transactionTime = locked.transactionTime ?? new Date();
    if (accounts.length === 0) return { ledgers: new Map(), recordedAt: transactionTime };
    const ledgers = new Map<string, CustomerLedger>(
      accounts.map((account) => [
        account.customerId,
        { account, lots: [], allLots: false, collected: undefined, sources: new Map(), changed: false },
      ]),
    );
    const ledgerOf = (customerId: string) => ledgers.get(customerKey(customerId))!;

    const pairs = new Map(
      events.map((e) => [
        `${customerKey(e.customerId)} ${e.sourceId}`,
        { customerId: customerKey(e.customerId), sourceId: e.sourceId },
      ]),
    );
    for (const row of await q.entriesBySource([...pairs.values()])) {
      ledgerOf(row.customer_id).sources.set(row.source_id, {
        type: row.type,
        points: row.points,
        recordedAt: row.recorded_at,
      });
    }

    const withNegative = new Set(events.filter((e) => e.points < 0).map((e) => customerKey(e.customerId)));
    const ids = [...ledgers.keys()];
    const lots = await q.openLots(
      ids.filter((id) => !withNegative.has(id)),
      ids.filter((id) => withNegative.has(id)),
      now,
    );
    for (const { customerId, ...lot } of lots) ledgerOf(customerId).lots.push(lot);
    for (const id of withNegative) ledgerOf(id).allLots = true;

    const mayRecord = new Set(
      events
        .filter((e) => !ledgerOf(e.customerId).sources.has(e.sourceId))
        .map((e) => customerKey(e.customerId)),
    );
    const tierDue = (ledger: CustomerLedger) =>
      ledger.account.tierExpirationDate !== null &&
      ledger.account.tierExpirationDate.getTime() <= now.getTime();
    const counted = ids.filter((id) => mayRecord.has(id) || tierDue(ledgerOf(id)));
    const since = qualifyingWindowStart(now);
    const collected = await q.collectedInWindows(counted.map((customerId) => ({ customerId, since })));
    counted.forEach((id, i) => (ledgerOf(id).collected = collected[i]!));
    return { ledgers, recordedAt: transactionTime };
  }

  /** Writes what the batch computed: new entries, lots' remainders, changed accounts. */
  async function writeLedgers(
    q: LoyaltyQueries,
    batch: LedgerBatch,
    ledgers: Map<string, CustomerLedger>,
  ): Promise<void> {
    // A lot recorded and expired in the same batch (earned 12 months ago to the day) has an expiry
    // entry that names the lot's id: known once the lot is inserted.
    const waiting = batch.entries.filter((e) => e.expiresEntry);
    const ready = batch.entries.filter((e) => !e.expiresEntry).map((e) => e.row);
    const ids = new Map<string, string>();
    for (let i = 0; i < ready.length; i += INSERT_CHUNK) {
      const chunk = ready.slice(i, i + INSERT_CHUNK);
      if (waiting.length === 0) await q.insertEntries(chunk);
      else for (const [key, id] of await q.insertEntriesReturningIds(chunk)) ids.set(key, id);
    }
    if (waiting.length > 0) {
      for (const { row, expiresEntry: lot } of waiting) {
        row.source_id = expirySourceId(ids.get(`${lot!.customer_id}:${lot!.seq}`)!);
      }
      await q.insertEntries(waiting.map((e) => e.row));
    }
    if (batch.lotRemainders.size > 0) {
      await q.setRemaining([...batch.lotRemainders].map(([id, remaining]) => ({ id, remaining })));
    }
    await q.saveAccounts([...ledgers.values()].filter((l) => l.changed).map((l) => l.account));
  }

  /**
   * Expiry of what is due at `now` for these customers, in one transaction: the same in-memory step
   * (LedgerBatch.expireDue) for each customer as for one, written with a few multi-row statements.
   * Answers the customers whose locks were taken (with `skip-locked`, those others held are missing),
   * each with their account after expiry and what was expired. Safe to run anywhere, any number of
   * times: a lot's expiry entry has a source id of its own, and everything happens under the locks.
   */
  async function expireTogether(customerIds: readonly string[], now: Date, lockMode: LockMode) {
    const done = new Map<string, { account: LoyaltyAccount; expiry: CustomerExpiry }>();
    try {
      await db.transaction().execute(async (tx) => {
        const q = loyaltyQueries(tx);
        const { ledgers, recordedAt } = await loadLedgers(q, customerIds, [], now, lockMode);
        const batch = createLedgerBatch(now, content.tierRules, recordedAt);
        const expiries = [...ledgers].map(([id, ledger]) => [id, batch.expireDue(ledger)] as const);
        await writeLedgers(q, batch, ledgers);
        for (const [id, expiry] of expiries) done.set(id, { account: ledgers.get(id)!.account, expiry });
      });
    } finally {
      // Also after a failure: a cache must not keep what may have changed before it.
      if (lockMode === 'wait') changed(customerIds);
      else if (done.size > 0) changed([...done.keys()]);
    }
    return done;
  }

  /**
   * The expiry lane of this instance (decision 0060): asks for one customer's expiry that come while
   * an expiry runs wait for it, then go together in one transaction, up to EXPIRY_BATCH_CUSTOMERS.
   * Asks whose moments lie within EXPIRY_MOMENTS_APART of each other are expired at the latest of
   * them: what fell due up to then is due for each of them too, since every moment asked for has
   * passed (tests that ask at moments of their own, further apart, get a transaction per moment).
   * The lane never waits for another transaction's lock (`skip-locked`): a customer whose account
   * is held is answered null, and expireNow expires them outside the lane.
   */
  const expireInLane = batchWhileBusy<
    { customerId: string; now: Date },
    { account: LoyaltyAccount; expiry: CustomerExpiry } | null
  >(
    async (asks) => {
      const moments = [...new Set(asks.map((ask) => ask.now.getTime()))].sort((x, y) => x - y);
      /** Each moment asked for, to the moment its group is expired at. */
      const groupOf = new Map<number, number>();
      for (let i = 0; i < moments.length;) {
        let j = i;
        while (j + 1 < moments.length && moments[j + 1]! - moments[i]! <= EXPIRY_MOMENTS_APART) j += 1;
        for (let k = i; k <= j; k += 1) groupOf.set(moments[k]!, moments[j]!);
        i = j + 1;
      }
      const byMoment = new Map<number, Set<string>>();
      for (const { customerId, now } of asks) {
        const moment = groupOf.get(now.getTime())!;
        byMoment.set(moment, (byMoment.get(moment) ?? new Set()).add(customerKey(customerId)));
      }
      const done = new Map<string, { account: LoyaltyAccount; expiry: CustomerExpiry }>();
      for (const [moment, ids] of byMoment) {
        for (const [id, result] of await expireTogether([...ids], new Date(moment), 'skip-locked'))
          done.set(`${moment} ${id}`, result);
      }
      // A customer asked for twice in one group: the first ask gets what was expired, the next ones
      // what a run straight after would find (nothing), as if they had run one after the other.
      const told = new Set<string>();
      return asks.map(({ customerId, now }) => {
        const key = `${groupOf.get(now.getTime())} ${customerKey(customerId)}`;
        const result = done.get(key);
        if (!result) return null;
        if (told.has(key)) return { account: result.account, expiry: { ...NOTHING_EXPIRED } };
        told.add(key);
        return result;
      });
    },
    { maxBatchSize: EXPIRY_BATCH_CUSTOMERS, maxRunning: 1 },
  );

  /**
   * Expiry for one customer (a member's visit with something due, an operator's command): in the
   * lane, or, when another transaction holds the account (or there is none yet), on its own,
   * waiting for the lock (and creating the account), as before decision 0060.
   */
  async function expireNow(
    customerId: string,
    now: Date,
  ): Promise<{ account: LoyaltyAccount; expiry: CustomerExpiry }> {
    const inLane = await expireInLane({ customerId, now });
    if (inLane) return inLane;
    const alone = (await expireTogether([customerId], now, 'wait')).get(customerKey(customerId));
    if (!alone) throw new Error(`no loyalty account for ${customerId}`);
    return alone;
  }

  /**
   * Expiry for everyone with lots or a tier due at `now`, set-based (decision 0045): one statement
   * finds them; then transactions of `batchSize` customers in customer id order, each skipping the
   * customers another transaction holds; then those of the skipped that are still due (whoever held
   * them may have expired them meanwhile), waiting for their locks.
   */
  async function expireAll(
    now: Date = clock(),
    { batchSize = EXPIRY_BATCH_CUSTOMERS }: { batchSize?: number } = {},
  ): Promise<ExpiryTotals> {
    const totals: ExpiryTotals = { customers: 0, lots: 0, points: 0, tiersRecomputed: 0, tiersLowered: 0 };
    const add = (done: Map<string, { expiry: CustomerExpiry }>) => {
      for (const { expiry } of done.values()) {
        if (expiry.lots === 0 && !expiry.tierRecomputed) continue;
        totals.customers += 1;
        totals.lots += expiry.lots;
        totals.points += expiry.points;
        totals.tiersRecomputed += expiry.tierRecomputed ? 1 : 0;
        totals.tiersLowered += expiry.tierLowered ? 1 : 0;
      }
    };
    const inBatches = async (ids: readonly string[], lockMode: LockMode) => {
      const skipped: string[] = [];
      for (let i = 0; i < ids.length; i += batchSize) {
        const chunk = ids.slice(i, i + batchSize);
        const done = await expireTogether(chunk, now, lockMode);
        add(done);
        skipped.push(...chunk.filter((id) => !done.has(id)));
      }
      return skipped;
    };
    // Sorted as PostgreSQL orders uuids (their bytes, i.e. lower-case hex): each batch is one range.
    const due = (await loyaltyQueries(db).customersWithDueWork(now)).map(customerKey).sort();
    const skipped = await inBatches(due, 'skip-locked');
    await inBatches(await loyaltyQueries(db).dueAmong(skipped, now), 'wait');
    return totals;
  }

  /**
   * Applies a batch of events (already validated) at `now`, in one transaction, in batch order:
   * each is recorded once per customer and source id (a second time, in the ledger or earlier in the
   * batch, it is a duplicate), or refused for an unknown customer or a non-member, with nothing
   * stored for them. Every statement is I/O to the database (PostgreSQL's socket, or embedded PGlite's
   * worker thread, decision 0012), so other requests run between them.
   */
  async function applyEvents(
    inputs: readonly LoyaltyEventInput[],
    now: Date = clock(),
  ): Promise<LoyaltyEventOutcome[]> {
    let members: string[] = [];
    const outcomes = await db.transaction().execute(async (tx) => {
      const q = loyaltyQueries(tx);
      const memberships = await q.memberships(inputs.map((e) => e.customerId));
      const membership = (e: LoyaltyEventInput) => memberships.get(customerKey(e.customerId));
      const memberEvents = inputs.filter((e) => membership(e) === true);
      const refused = (e: LoyaltyEventInput) =>
        refusedOutcome(e, membership(e) === undefined ? 'unknown' : 'not-member');
      if (memberEvents.length === 0) return inputs.map(refused);

      members = [...new Set(memberEvents.map((e) => customerKey(e.customerId)))];
      const { ledgers, recordedAt } = await loadLedgers(q, members, memberEvents, now);
      const batch = createLedgerBatch(now, content.tierRules, recordedAt);
      const outcomes = inputs.map((e) =>
        membership(e) === true ? batch.applyEvent(ledgers.get(customerKey(e.customerId))!, e) : refused(e),
      );
      await writeLedgers(q, batch, ledgers);
      return outcomes;
    });
    if (members.length > 0) changed(members);
    return outcomes;
  }

  /**
   * The member's account as of `now`: read without locks, and only when a lot or the tier is due,
   * expired first (docs/product/loyalty.md#loyalty-rules: before answering the member). A member's first visit
   * creates the account at the entry tier.
   */
  async function currentAccount(customerId: string, now: Date): Promise<LoyaltyAccount> {
    const q = loyaltyQueries(db);
    const found = await q.accountWithDueCheck(customerId, now);
    if (!found) {
      const created = await q.ensureAccount(customerId);
      changed(customerId);
      return created;
    }
    return found.due ? (await expireNow(customerId, now)).account : found.account;
  }

  const toTierDetails = (account: LoyaltyAccount): LoyaltyTierDetails => ({
    points: account.balance,
    tier: account.tier,
    tierExpirationDate: account.tierExpirationDate?.toISOString() ?? null,
    updatedAt: account.updatedAt.toISOString(),
  });

  /** Whether a member state read is what the member sees at `now`: an account, and nothing due. */
  const settled = (found: MemberStateRow, now: Date): found is MemberStateRow & { account: LoyaltyAccount } =>
    found.account !== undefined && (found.dueAt === null || found.dueAt.getTime() > now.getTime());

  /**
   * A member's read (`ask`, one statement) as the member sees it at `now`: when it finds a first
   * visit or something due, that is written first (the account created, or what is due expired,
   * docs/product/loyalty.md#loyalty-rules) and the read asked again. Null for a non-member or an
   * unknown customer.
   */
  async function settledRead(
    ask: MemberReadAsk,
    now: Date,
  ): Promise<(MemberRead & { account: LoyaltyAccount; dueAt: Date | null }) | null> {
    let read = await readMember(ask);
    if (!read.state?.member) return null;
    if (!settled(read.state, now)) {
      if (read.state.account) await expireNow(ask.customerId, now);
      else {
        await loyaltyQueries(db).ensureAccount(ask.customerId);
        changed(ask.customerId);
      }
      read = await readMember(ask);
    }
    const { state } = read;
    return state?.member && state.account ? { ...read, account: state.account, dueAt: state.dueAt } : null;
  }

  /** Reads the member state (one statement; a first visit or something due writes first). */
  async function loadMemberState(customerId: string, now: Date): Promise<MemberState | null> {
    const read = await settledRead({ customerId }, now);
    if (!read) return null;
    const { account, dueAt } = read;
    const details = toTierDetails(account);
    return {
      details,
      detailsJson: JSON.stringify(details),
      eventCount: account.eventCount,
      validUntil: dueAt?.getTime() ?? Infinity,
    };
  }

  /**
   * The member's state as of `now`, null for a non-member (or unknown customer): from the cache while
   * nothing has changed and nothing is due, else read (after applying what is due, docs/product/loyalty.md#loyalty-rules, and creating the account on a first visit).
   */
  async function memberState(customerId: string, now: Date = clock()): Promise<MemberState | null> {
    const id = customerKey(customerId);
    if (!cache) return loadMemberState(id, now);
    const load = async () => {
      const value = await loadMemberState(id, now);
      return { value, validUntil: value?.validUntil ?? Infinity };
    };
    return (await cache.get(id, 'state', load, now.getTime())) as MemberState | null;
  }

  /** LoyaltyHistoryPage's JSON text around a page's entries as the database wrote them. */
  const historyPageJson = (entries: string, eventCount: number, pageIndex: number, pageSize: number) =>
    `{"content":${entries},"totalPages":${Math.ceil(eventCount / pageSize)},` +
    `"totalElements":${eventCount},"pageIndex":${pageIndex},"pageSize":${pageSize}}`;

  /**
   * One history page as the JSON text of LoyaltyHistoryPage, for the members' call: the entries as
   * the database builds them, passed through (not parsed and serialised again). Null for a
   * non-member. The member's state and the page are one read (memberReads, decision 0055) unless a
   * first visit or something due has to be written first, with a read cache or without: a page the
   * cache does not hold costs one statement, even when the cache holds the member's state. Cached
   * until something of the member's changes or falls due.
   */
  async function historyJson(
    customerId: string,
    pageIndex: number,
    pageSize: number,
    now: Date = clock(),
  ): Promise<string | null> {
    const id = customerKey(customerId);
    const load = async () => {
      const read = await settledRead({ customerId: id, page: { index: pageIndex, size: pageSize } }, now);
      if (!read) return { value: null };
      return {
        value: historyPageJson(read.page ?? '[]', read.account.eventCount, pageIndex, pageSize),
        validUntil: read.dueAt?.getTime() ?? Infinity,
      };
    };
    if (!cache) return (await load()).value;
    return (await cache.get(id, `history:${pageIndex}:${pageSize}`, load, now.getTime())) as string | null;
  }

  return {
    /** Expiry for one customer (what is due at `now`); safe to run anywhere, any number of times. */
    async expireCustomer(customerId: string, now: Date = clock()): Promise<CustomerExpiry> {
      return (await expireNow(customerId, now)).expiry;
    },

    /**
     * Expiry for everyone with lots or a tier due at `now` (operator command and timer), a few hundred
     * customers per transaction; `customers` counts those it changed.
     */
    expireAll,

    applyEvents,

    /**
     * Records one incoming event (already validated) for a member, once per source id: a batch of
     * one. Non-members and unknown customers are refused and nothing is stored.
     */
    async applyEvent(input: LoyaltyEventInput, now: Date = clock()): Promise<LoyaltyEventOutcome> {
      const [outcome] = await applyEvents([input], now);
      return outcome!;
    },

    /** Tier details of docs/product/data.md#entities-and-fields for a member, after applying what is due: what the members' call sends. */
    async tierDetails(customerId: string, now: Date = clock()): Promise<LoyaltyTierDetails> {
      const state = await memberState(customerId, now);
      if (!state) throw loyaltyErrors.notAMember();
      return state.details;
    },

    memberState,

    historyJson,

    /**
     * The expiry forecast of docs/product/loyalty.md#points-expiry-forecast for a member, from their open
     * lots after what is due was applied (the lots' remainders are what oldest-first spending left).
     */
    async expiryForecast(
      customerId: string,
      { now = clock() }: { now?: Date } = {},
    ): Promise<Omit<LoyaltyExpiryForecast, 'reminderDays'>> {
      const id = customerKey(customerId);
      // The state and what the forecast reads, in one statement (memberReads).
      const read = await settledRead({ customerId: id, forecast: true }, now);
      const inputs = read?.forecast;
      if (!read || !inputs) throw loyaltyErrors.notAMember();
      const { tier, tierExpirationDate } = read.account;
      return expiryForecast({
        now,
        lots: inputs.lots,
        tier,
        tierExpirationDate,
        collectedForTier: inputs.tierWindowPoints,
        rules: content.tierRules,
      });
    },

    /**
     * One history page, newest first, parsed: the members' call's page (historyJson). Page k covers
     * seq (N-(k+1)·size, N-k·size] of the N entries: an index range, so every page costs the same
     * however long the history is.
     */
    async history(
      customerId: string,
      pageIndex: number,
      pageSize: number,
      now: Date = clock(),
    ): Promise<LoyaltyHistoryPage> {
      const page = await historyJson(customerId, pageIndex, pageSize, now);
      if (page === null) throw loyaltyErrors.notAMember();
      return JSON.parse(page) as LoyaltyHistoryPage;
    },

    /** The account as it is (operator views), after applying what is due; undefined when there is none. */
    async account(customerId: string, now: Date = clock()): Promise<LoyaltyAccount | undefined> {
      const found = await loyaltyQueries(db).accountWithDueCheck(customerId, now);
      if (!found) return undefined;
      return found.due ? (await expireNow(customerId, now)).account : found.account;
    },

    /** Whether the customer's current tier may get a partner code for this reward in their country. */
    async checkPartnerReward(
      customerId: string,
      legalEntityIso: string,
      slug: string,
      now: Date = clock(),
    ): Promise<PartnerRewardCheck> {
      const rule = content.rewardRule(slug, legalEntityIso);
      if (!rule) return { ok: false, reason: 'unknown-reward' };
      if (!rule.partnerCode) return { ok: false, reason: 'not-partner-reward' };
      const { tier } = await currentAccount(customerId, now);
      if (tierRank(tier) < tierRank(rule.unlockedIn)) {
        return { ok: false, reason: 'locked', tierNeeded: rule.unlockedIn, tier };
      }
      return { ok: true, rule };
    },

    findPartnerCode(customerId: string, slug: string): Promise<PartnerCodeRow | undefined> {
      return loyaltyQueries(db).findPartnerCode(customerId, slug);
    },

    /**
     * The customer's code for a partner reward, generated on the first call only. Concurrent calls
     * agree: each inserts "on conflict do nothing" and then reads the one row that won.
     */
    async obtainPartnerCode(
      customerId: string,
      slug: string,
    ): Promise<{ partnerCode: PartnerCodeRow; created: boolean }> {
      const q = loyaltyQueries(db);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const existing = await q.findPartnerCode(customerId, slug);
        if (existing) return { partnerCode: existing, created: false };
        const created = await q.insertPartnerCode(customerId, slug, generatePartnerCode());
        const row = await q.findPartnerCode(customerId, slug);
        if (row) return { partnerCode: row, created };
        // Neither ours nor another request's row: the random code was already taken. Draw again.
      }
      throw new Error('Could not generate a unique partner code');
    },
  };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
