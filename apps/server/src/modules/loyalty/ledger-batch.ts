import type { LoyaltyEventInput, LoyaltyEventOutcome } from '@roadpass/contracts';
import type { TierRule } from '../content/index.js';
import type { LoyaltyAccount, NewLedgerRow } from './loyalty-repository.js';
import {
  expirySourceId,
  nextTierState,
  qualifyingWindowStart,
  takeOldestFirst,
  tierRank,
  validityEnd,
  type Lot,
} from './loyalty-rules.js';

/**
 * What a batch of events (or an expiry run) does to the ledgers, computed in memory: the service
 * loads each customer's ledger under the account lock, hands it here event by event in batch order,
 * and writes what this computed with a few multi-row statements. The rules are those of
 * loyalty-rules.ts; this file only applies them in order and keeps the running state (balance, lots,
 * sequence numbers, the tier's 12-month total, the source ids seen), so that every event sees the
 * ledger exactly as if the events before it had been applied one transaction at a time, at the same
 * moment.
 */

/** A lot (positive entry with points left) as the batch sees it; `entry` is set for a lot this batch records. */
export interface OpenLot extends Lot {
  description: string;
  entry?: NewLedgerRow;
}

/** An entry with a given source id, as a duplicate's answer describes it. */
export interface RecordedSource {
  type: string;
  points: number;
  recordedAt: Date;
}

/** One customer's ledger: loaded under the account lock, then changed in memory. */
export interface CustomerLedger {
  account: LoyaltyAccount;
  /**
   * Open lots, expiring first, then in ledger order: those due at `now` always; every open lot when
   * `allLots` (the batch has negative events for the customer); then the lots this batch records.
   */
  lots: OpenLot[];
  allLots: boolean;
  /** Points counted for the tier in its 12-month window; loaded when the tier is due or events are recorded. */
  collected: number | undefined;
  /** Entries by source id: those of the batch's events already in the ledger, and those this batch adds. */
  sources: Map<string, RecordedSource>;
  /** The account changed and must be written. */
  changed: boolean;
}

/** A new ledger row; an expiry row of a lot recorded by this batch names the lot's id, known only once inserted. */
export interface PlannedEntry {
  row: NewLedgerRow;
  expiresEntry?: NewLedgerRow;
}

export interface CustomerExpiry {
  lots: number;
  points: number;
  tierRecomputed: boolean;
  tierLowered: boolean;
}

const day = (date: Date | null) => date?.toISOString().slice(0, 10);
const describeTier = (account: LoyaltyAccount) =>
  account.tierExpirationDate ? `${account.tier} until ${day(account.tierExpirationDate)}` : account.tier;

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

/** The answer for an event of a customer who does not exist or is not a member: nothing is stored. */
export function refusedOutcome(
  input: LoyaltyEventInput,
  reason: 'unknown' | 'not-member',
): LoyaltyEventOutcome {
  return reason === 'unknown'
    ? outcome(input, 'not-member', `unknown customer ${input.customerId}: nothing recorded`)
    : outcome(
        input,
        'not-member',
        'the customer is not a member of the loyalty programme (core consent not granted): nothing recorded',
      );
}

/** The key of a customer in a batch: the database writes uuids in lower case. */
export const customerKey = (customerId: string) => customerId.toLowerCase();

/**
 * The in-memory step of one batch at one moment `now`. `recordedAt` is the time the database stamps
 * on the rows this transaction inserts (a duplicate within the batch is answered with it).
 */
export function createLedgerBatch(now: Date, tierRules: readonly TierRule[], recordedAt: Date) {
  const entries: PlannedEntry[] = [];
  /** Remainders of lots that were in the ledger before the batch, by lot id. */
  const lotRemainders = new Map<string, number>();

  const setRemaining = (lot: OpenLot, remaining: number) => {
    lot.remaining = remaining;
    if (lot.entry) lot.entry.remaining_points = remaining;
    else lotRemainders.set(lot.id, remaining);
  };

  const collectedOf = (ledger: CustomerLedger) => {
    if (ledger.collected === undefined) {
      throw new Error(`points collected by ${ledger.account.customerId} were not loaded`);
    }
    return ledger.collected;
  };

  /** Applies what is due at `now`: the tier on its date, and lots whose 12 months are over. */
  function expireDue(ledger: CustomerLedger): CustomerExpiry {
    const before = ledger.account;
    const next = { ...before };
    let tierRecomputed = false;
    if (before.tierExpirationDate && before.tierExpirationDate.getTime() <= now.getTime()) {
      const state = nextTierState(before, collectedOf(ledger), now, tierRules);
      next.tier = state.tier;
      next.tierExpirationDate = state.tierExpirationDate;
      tierRecomputed = true;
    }
    // A stable sort keeps ledger order among lots expiring at the same moment.
    const due = ledger.lots
      .filter((lot) => lot.remaining > 0 && lot.expiresAt.getTime() <= now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
    let points = 0;
    due.forEach((lot, i) => {
      const row: NewLedgerRow = {
        customer_id: before.customerId,
        seq: before.eventCount + i + 1,
        source_id: lot.entry ? '' : expirySourceId(lot.id),
        type: 'expiry',
        points: -lot.remaining,
        occurred_at: lot.expiresAt,
        expires_at: null,
        remaining_points: 0,
        description: lot.description,
        tier_after: next.tier,
      };
      entries.push(lot.entry ? { row, expiresEntry: lot.entry } : { row });
      if (!lot.entry) ledger.sources.set(row.source_id, { type: 'expiry', points: row.points, recordedAt });
      points += lot.remaining;
      setRemaining(lot, 0);
    });
    next.balance = Math.max(0, before.balance - points);
    next.eventCount = before.eventCount + due.length;
    if (tierRecomputed || due.length > 0) {
      next.updatedAt = now;
      ledger.changed = true;
    }
    ledger.account = next;
    return {
      lots: due.length,
      points,
      tierRecomputed,
      tierLowered: tierRank(next.tier) < tierRank(before.tier),
    };
  }

  /** One event of a member, after what is due: recorded, or a duplicate of an entry with its source id. */
  function applyEvent(ledger: CustomerLedger, input: LoyaltyEventInput): LoyaltyEventOutcome {
    expireDue(ledger);
    const account = ledger.account;
    const known = ledger.sources.get(input.sourceId);
    if (known) {
      return outcome(
        input,
        'duplicate',
        `already recorded on ${known.recordedAt.toISOString()} (${known.type}, ${known.points} points): ` +
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
      if (!ledger.allLots) throw new Error(`open lots of ${account.customerId} were not loaded`);
      const wanted = -input.points;
      const { taken, changed } = takeOldestFirst(ledger.lots, wanted);
      const byId = new Map(ledger.lots.map((lot) => [lot.id, lot]));
      for (const change of changed) setRemaining(byId.get(change.id)!, change.remaining);
      balance -= taken;
      if (taken < wanted) note = ` (only ${taken} points were left, the balance stays at 0)`;
    }
    const collected = collectedOf(ledger) + (occurredAt.getTime() > windowStart.getTime() ? input.points : 0);
    const tier = nextTierState(account, collected, now, tierRules);

    const row: NewLedgerRow = {
      customer_id: account.customerId,
      seq: account.eventCount + 1,
      source_id: input.sourceId,
      type: input.type,
      points: input.points,
      occurred_at: occurredAt,
      expires_at: input.points > 0 ? validityEnd(occurredAt) : null,
      remaining_points: Math.max(0, input.points),
      description: input.description ?? '',
      tier_after: tier.tier,
    };
    entries.push({ row });
    if (input.points > 0) {
      ledger.lots.push({
        id: `new:${row.customer_id}:${row.seq}`,
        remaining: row.remaining_points,
        expiresAt: row.expires_at!,
        description: row.description,
        entry: row,
      });
    }
    ledger.collected = collected;
    ledger.sources.set(input.sourceId, { type: input.type, points: input.points, recordedAt });
    ledger.account = {
      ...account,
      balance,
      tier: tier.tier,
      tierExpirationDate: tier.tierExpirationDate,
      eventCount: account.eventCount + 1,
      updatedAt: now,
    };
    ledger.changed = true;
    const change =
      tier.tier !== account.tier
        ? `; tier ${account.tier} → ${describeTier(ledger.account)}`
        : `, tier ${describeTier(ledger.account)}`;
    return outcome(
      input,
      'recorded',
      `recorded ${input.points} points (${input.type})${note}; balance ${balance}${change}`,
      ledger.account,
    );
  }

  return {
    expireDue,
    applyEvent,
    /** The new ledger rows in the order they were planned. */
    entries,
    /** New remainders of lots that were in the ledger before the batch. */
    lotRemainders,
  };
}

export type LedgerBatch = ReturnType<typeof createLedgerBatch>;
