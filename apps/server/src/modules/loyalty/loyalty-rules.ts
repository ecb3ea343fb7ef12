import { LOYALTY_VALIDITY_MONTHS, tierSlugs, type TierSlug, type Violation } from '@roadpass/contracts';
import type { TierRule } from '../content/index.js';

/**
 * The loyalty rules of docs/product/loyalty.md#loyalty-rules as pure functions. Nothing here reads the clock or the
 * database: the time is always passed in, so every rule can be tested at any date.
 */

/** The clock the service asks for "now" (tests and the operator command pass their own). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** `date` plus `months` calendar months in UTC; the day is clamped (29 Feb + 12 months = 28 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** When points earned at `earnedAt` expire, and how long a tier reached at that time holds. */
export const validityEnd = (from: Date): Date => addMonths(from, LOYALTY_VALIDITY_MONTHS);

/** Start of the 12-month window that counts for the tier at `now` (exclusive). */
export const qualifyingWindowStart = (now: Date): Date => addMonths(now, -LOYALTY_VALIDITY_MONTHS);

/** Position of a tier, lowest first; unknown slugs rank below every tier. */
export const tierRank = (tier: string): number => (tierSlugs as readonly string[]).indexOf(tier);

/** Thresholds sorted lowest first (content is checked at start, but the order is not trusted here). */
function sortedRules(rules: readonly TierRule[]): TierRule[] {
  if (rules.length === 0) throw new Error('The loyalty content has no tiers');
  return [...rules].sort((a, b) => a.threshold - b.threshold);
}

/** The entry tier: the one with the lowest threshold (sky-blue). */
export const entryTier = (rules: readonly TierRule[]): TierSlug => sortedRules(rules)[0]!.slug;

/** The highest tier whose threshold `points` reach; the entry tier below every threshold. */
export function tierForPoints(points: number, rules: readonly TierRule[]): TierSlug {
  const sorted = sortedRules(rules);
  let tier = sorted[0]!.slug;
  for (const rule of sorted) if (points >= rule.threshold) tier = rule.slug;
  return tier;
}

export interface TierState {
  tier: TierSlug;
  /** When the tier is computed again; null for the entry tier. */
  tierExpirationDate: Date | null;
}

export type TierChange = 'upgraded' | 'recomputed' | 'unchanged';

/**
 * The tier after something happened at `now`, given the points collected in the 12 months up to now:
 * - reaching a higher tier upgrades at once and holds it for 12 months from now;
 * - otherwise a tier holds until its expiration date, then is computed again from the points of the
 *   last 12 months (it may go down) and, unless it is the entry tier, holds for another 12 months;
 * - the entry tier has no expiration date.
 */
export function nextTierState(
  current: TierState,
  qualifyingPoints: number,
  now: Date,
  rules: readonly TierRule[],
): TierState & { change: TierChange } {
  const reached = tierForPoints(Math.max(0, qualifyingPoints), rules);
  const entry = entryTier(rules);
  if (tierRank(reached) > tierRank(current.tier)) {
    return { tier: reached, tierExpirationDate: validityEnd(now), change: 'upgraded' };
  }
  const due = current.tierExpirationDate !== null && current.tierExpirationDate.getTime() <= now.getTime();
  if (due) {
    return {
      tier: reached,
      tierExpirationDate: reached === entry ? null : validityEnd(now),
      change: 'recomputed',
    };
  }
  return { ...current, change: 'unchanged' };
}

/** A positive event's points as far as they are not used or expired. */
export interface Lot {
  id: string;
  remaining: number;
  expiresAt: Date;
}

/**
 * Takes `amount` points from the lots that expire first (FIFO). Never takes more than there is: the
 * balance cannot go below 0. Returns the points taken and the new remainder of every lot touched.
 */
export function takeOldestFirst(
  lots: readonly Lot[],
  amount: number,
): { taken: number; changed: { id: string; remaining: number }[] } {
  const oldestFirst = [...lots]
    .filter((lot) => lot.remaining > 0)
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  let left = Math.max(0, amount);
  const changed: { id: string; remaining: number }[] = [];
  for (const lot of oldestFirst) {
    if (left === 0) break;
    const take = Math.min(lot.remaining, left);
    left -= take;
    changed.push({ id: lot.id, remaining: lot.remaining - take });
  }
  return { taken: Math.max(0, amount) - left, changed };
}

/** The source id of the expiry entry of a lot: one per lot, so expiry can run anywhere, any number of times. */
export const expirySourceId = (lotId: string): string => `expiry:${lotId}`;

/** Clocks of the rental system and ours may differ a little; more than this ahead is "in the future". */
export const CLOCK_SKEW_MS = 60_000;

export interface IncomingEventFacts {
  type: 'rental-completed' | 'bonus' | 'adjustment';
  points: number;
  occurredAt?: string | undefined;
}

/**
 * The rules an incoming event must follow beyond its schema (which already checks the shape):
 * points above zero for rentals and bonuses, not in the future, not older than 12 months.
 * `field` prefixes the violations' field names (e.g. "events.3").
 */
export function incomingEventViolations(event: IncomingEventFacts, now: Date, field = ''): Violation[] {
  const name = (key: string) => (field ? `${field}.${key}` : key);
  const violations: Violation[] = [];
  if (event.points === 0) {
    violations.push({
      field: name('points'),
      rule: 'notZero',
      message: `${name('points')} must not be 0 (an event without points changes nothing)`,
    });
  } else if (event.points < 0 && event.type !== 'adjustment') {
    violations.push({
      field: name('points'),
      rule: 'exclusiveMinimum',
      message: `${name('points')} must be above 0 for a ${event.type} event (only an adjustment may be negative)`,
    });
  }
  if (event.occurredAt !== undefined) {
    const occurredAt = Date.parse(event.occurredAt);
    if (Number.isNaN(occurredAt)) {
      violations.push({
        field: name('occurredAt'),
        rule: 'format',
        message: `${name('occurredAt')} is not a date`,
      });
    } else if (occurredAt > now.getTime() + CLOCK_SKEW_MS) {
      violations.push({
        field: name('occurredAt'),
        rule: 'notInFuture',
        message: `${name('occurredAt')} must not be in the future`,
      });
    } else if (occurredAt < qualifyingWindowStart(now).getTime()) {
      violations.push({
        field: name('occurredAt'),
        rule: 'notOlderThan12Months',
        message: `${name('occurredAt')} must not be more than ${LOYALTY_VALIDITY_MONTHS} months ago (such points would already have expired)`,
      });
    }
  }
  return violations;
}
