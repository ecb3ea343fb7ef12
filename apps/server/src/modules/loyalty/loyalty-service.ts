import type {
  LoyaltyEventInput,
  LoyaltyEventOutcome,
  LoyaltyHistoryPage,
  LoyaltyTierDetails,
  TierSlug,
} from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { isLoyaltyMember } from '../consents/consent-repository.js';
import type { LoyaltyContent, RewardRule } from '../content/loyalty-content.js';
import type { CustomerRepository } from '../customers/customer-repository.js';
import {
  loyaltyQueries,
  type LoyaltyAccount,
  type LoyaltyQueries,
  type PartnerCodeRow,
} from './loyalty-repository.js';
import {
  expirySourceId,
  nextTierState,
  qualifyingWindowStart,
  systemClock,
  takeOldestFirst,
  tierRank,
  validityEnd,
  type Clock,
} from './loyalty-rules.js';
import { generatePartnerCode } from './partner-code.js';

export interface CustomerExpiry {
  lots: number;
  points: number;
  tierRecomputed: boolean;
  tierLowered: boolean;
}

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
  customers: CustomerRepository;
  content: LoyaltyContent;
  clock?: Clock;
}

const day = (date: Date | null) => date?.toISOString().slice(0, 10);
const describeTier = (account: LoyaltyAccount) =>
  account.tierExpirationDate ? `${account.tier} until ${day(account.tierExpirationDate)}` : account.tier;

/**
 * The loyalty ledger's use cases: applying an event, expiry, and what a member reads. Every change to
 * one customer's ledger happens in one transaction holding that customer's account row lock; the
 * rules themselves are the pure functions of loyalty-rules.ts.
 */
export function createLoyaltyService({ db, customers, content, clock = systemClock }: LoyaltyServiceDeps) {
  /** Applies what is due at `now` inside a transaction that holds the account lock. */
  async function expireLocked(
    q: LoyaltyQueries,
    account: LoyaltyAccount,
    now: Date,
  ): Promise<{ account: LoyaltyAccount; expiry: CustomerExpiry }> {
    const next = { ...account };
    let tierRecomputed = false;
    if (account.tierExpirationDate && account.tierExpirationDate.getTime() <= now.getTime()) {
      const collected = await q.collectedSince(account.customerId, qualifyingWindowStart(now));
      const state = nextTierState(account, collected, now, content.tierRules);
      next.tier = state.tier;
      next.tierExpirationDate = state.tierExpirationDate;
      tierRecomputed = true;
    }
    const due = await q.openLots(account.customerId, now);
    const points = due.reduce((sum, lot) => sum + lot.remaining, 0);
    await q.insertEntries(
      due.map((lot, i) => ({
        customer_id: account.customerId,
        seq: account.eventCount + i + 1,
        source_id: expirySourceId(lot.id),
        type: 'expiry',
        points: -lot.remaining,
        occurred_at: lot.expiresAt,
        expires_at: null,
        remaining_points: 0,
        description: lot.description,
        tier_after: next.tier,
      })),
    );
    await q.emptyLots(due.map((lot) => lot.id));
    next.balance = Math.max(0, account.balance - points);
    next.eventCount = account.eventCount + due.length;
    if (tierRecomputed || due.length > 0) {
      next.updatedAt = now;
      await q.saveAccount(next);
    }
    return {
      account: next,
      expiry: {
        lots: due.length,
        points,
        tierRecomputed,
        tierLowered: tierRank(next.tier) < tierRank(account.tier),
      },
    };
  }

  /** Expiry for one customer in its own transaction; safe to run anywhere, any number of times. */
  async function expireNow(customerId: string, now: Date) {
    return db.transaction().execute(async (tx) => {
      const q = loyaltyQueries(tx);
      return expireLocked(q, await q.lockAccount(customerId), now);
    });
  }

  /**
   * The member's account as of `now`: read without locks, and only when a lot or the tier is due,
   * expired first (product decisions §4: before answering the member). A member's first visit
   * creates the account at the entry tier.
   */
  async function currentAccount(customerId: string, now: Date): Promise<LoyaltyAccount> {
    const q = loyaltyQueries(db);
    const found = await q.accountWithDueCheck(customerId, now);
    if (!found) return q.ensureAccount(customerId);
    return found.due ? (await expireNow(customerId, now)).account : found.account;
  }

  const outcome = (
    input: LoyaltyEventInput,
    status: LoyaltyEventOutcome['status'],
    message: string,
    account?: LoyaltyAccount,
  ): LoyaltyEventOutcome => ({
    sourceId: input.sourceId,
    customerId: input.customerId,
    status,
    message,
    points: account?.balance ?? 0,
    tier: account?.tier ?? null,
  });

  return {
    /** Expiry for one customer (what is due at `now`); safe to run anywhere, any number of times. */
    async expireCustomer(customerId: string, now: Date = clock()): Promise<CustomerExpiry> {
      return (await expireNow(customerId, now)).expiry;
    },

    /** Expiry for everyone with lots or a tier due at `now` (operator command and timer). */
    async expireAll(now: Date = clock()): Promise<ExpiryTotals> {
      const totals: ExpiryTotals = { customers: 0, lots: 0, points: 0, tiersRecomputed: 0, tiersLowered: 0 };
      for (const customerId of await loyaltyQueries(db).customersWithDueWork(now)) {
        const { expiry } = await expireNow(customerId, now);
        totals.customers += 1;
        totals.lots += expiry.lots;
        totals.points += expiry.points;
        totals.tiersRecomputed += expiry.tierRecomputed ? 1 : 0;
        totals.tiersLowered += expiry.tierLowered ? 1 : 0;
      }
      return totals;
    },

    /**
     * Records one incoming event (already validated) for a member, once per source id. Non-members
     * and unknown customers are refused and nothing is stored.
     */
    async applyEvent(input: LoyaltyEventInput, now: Date = clock()): Promise<LoyaltyEventOutcome> {
      if (!(await customers.findById(input.customerId))) {
        return outcome(input, 'not-member', `unknown customer ${input.customerId}: nothing recorded`);
      }
      if (!(await isLoyaltyMember(db, input.customerId))) {
        return outcome(
          input,
          'not-member',
          'the customer is not a member of the loyalty programme (core consent not granted): nothing recorded',
        );
      }
      return db.transaction().execute(async (tx) => {
        const q = loyaltyQueries(tx);
        let { account } = await expireLocked(q, await q.lockAccount(input.customerId), now);

        const known = await q.findBySource(input.customerId, input.sourceId);
        if (known) {
          return outcome(
            input,
            'duplicate',
            `already recorded on ${known.recorded_at.toISOString()} (${known.type}, ${known.points} points): ` +
              `nothing changed; balance ${account.balance}, tier ${describeTier(account)}`,
            account,
          );
        }

        const occurredAt = input.occurredAt ? new Date(input.occurredAt) : now;
        const windowStart = qualifyingWindowStart(now);
        let balance = account.balance;
        let note = '';
        if (input.points > 0) {
          balance += input.points;
        } else {
          const wanted = -input.points;
          const { taken, changed } = takeOldestFirst(await q.openLots(input.customerId), wanted);
          await q.setRemaining(changed);
          balance -= taken;
          if (taken < wanted) note = ` (only ${taken} points were left, the balance stays at 0)`;
        }
        const collected =
          (await q.collectedSince(input.customerId, windowStart)) +
          (occurredAt.getTime() > windowStart.getTime() ? input.points : 0);
        const tier = nextTierState(account, collected, now, content.tierRules);

        await q.insertEntries([
          {
            customer_id: input.customerId,
            seq: account.eventCount + 1,
            source_id: input.sourceId,
            type: input.type,
            points: input.points,
            occurred_at: occurredAt,
            expires_at: input.points > 0 ? validityEnd(occurredAt) : null,
            remaining_points: Math.max(0, input.points),
            description: input.description ?? '',
            tier_after: tier.tier,
          },
        ]);
        const previousTier = account.tier;
        account = {
          ...account,
          balance,
          tier: tier.tier,
          tierExpirationDate: tier.tierExpirationDate,
          eventCount: account.eventCount + 1,
          updatedAt: now,
        };
        await q.saveAccount(account);
        const change =
          tier.tier !== previousTier
            ? `; tier ${previousTier} → ${describeTier(account)}`
            : `, tier ${describeTier(account)}`;
        return outcome(
          input,
          'recorded',
          `recorded ${input.points} points (${input.type})${note}; balance ${balance}${change}`,
          account,
        );
      });
    },

    /** Tier details of spec §3 for a member, after applying what is due. */
    async tierDetails(customerId: string, now: Date = clock()): Promise<LoyaltyTierDetails> {
      const account = await currentAccount(customerId, now);
      return {
        points: account.balance,
        tier: account.tier,
        tierExpirationDate: account.tierExpirationDate?.toISOString() ?? null,
        updatedAt: account.updatedAt.toISOString(),
      };
    },

    /**
     * One history page, newest first. Page k covers seq (N-(k+1)·size, N-k·size] of the N entries: an
     * index range, so every page costs the same however long the history is.
     */
    async history(
      customerId: string,
      pageIndex: number,
      pageSize: number,
      now: Date = clock(),
    ): Promise<LoyaltyHistoryPage> {
      const { eventCount } = await currentAccount(customerId, now);
      const high = eventCount - pageIndex * pageSize;
      const content =
        high > 0
          ? await loyaltyQueries(db).historyEntries(customerId, Math.max(0, high - pageSize), high)
          : [];
      return {
        content,
        totalPages: Math.ceil(eventCount / pageSize),
        totalElements: eventCount,
        pageIndex,
        pageSize,
      };
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
