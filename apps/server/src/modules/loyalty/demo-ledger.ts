import type { IncomingLoyaltyEventType, TierSlug } from '@roadpass/contracts';
import type { TierRule } from '../content/index.js';
import type { NewLedgerRow } from './loyalty-repository.js';
import {
  entryTier,
  nextTierState,
  qualifyingWindowStart,
  takeOldestFirst,
  tierRank,
  validityEnd,
  type Lot,
  type TierState,
} from './loyalty-rules.js';

/** What a demo customer's ledger looks like (docs/product/demo-data.md#demo-customers). */
export interface DemoProfile {
  /** Lower-case country code of demo.{cc}@example.com. */
  cc: string;
  tier: TierSlug;
  entries: number;
}

export const demoProfiles: readonly DemoProfile[] = [
  { cc: 'de', tier: 'royal-gold', entries: 250 },
  { cc: 'at', tier: 'ocean-silver', entries: 8 },
  { cc: 'fr', tier: 'sky-blue', entries: 5 },
  { cc: 'it', tier: 'sapphire-diamond', entries: 12 },
  { cc: 'es', tier: 'ocean-silver', entries: 6 },
  { cc: 'hu', tier: 'sky-blue', entries: 3 },
  { cc: 'dk', tier: 'royal-gold', entries: 10 },
];

export interface DemoEvent {
  sourceId: string;
  type: IncomingLoyaltyEventType;
  points: number;
  occurredAt: Date;
  description: string;
}

const DAY_MS = 86_400_000;
/** Demo events lie within the last 11 months, so none has expired yet. */
const SPAN_DAYS = 330;

/** A small seeded random source (mulberry32): the same demo ledger on every machine. */
function seededRandom(seedText: string): () => number {
  let seed = [...seedText].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261) >>> 0;
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points to collect for a tier: halfway between its threshold and the next one's. */
export function demoTarget(tier: TierSlug, rules: readonly TierRule[]): number {
  const sorted = [...rules].sort((a, b) => a.threshold - b.threshold);
  const index = sorted.findIndex((r) => r.slug === tier);
  const low = sorted[index]?.threshold ?? 0;
  const high = sorted[index + 1]?.threshold ?? Math.max(low * 1.5, low + 1000);
  return Math.round((low + high) / 2);
}

/**
 * The DE demo ledger: mostly rentals of 10–60 points, four bonuses and two adjustments, adding up to
 * `target`. Rentals start at 10 points and the rest is spread over them at random (at most 60 each).
 */
function manyRentals(profile: DemoProfile, target: number, random: () => number) {
  // Bonuses and adjustments carry no text: a customer reads their translated type ("Bonus",
  // "Korrektur"), never a source system's English (issue 7, defect 6).
  const bonuses = new Set([20, 90, 160, 230]);
  const adjustments = new Map([
    [120, -20],
    [200, 15],
  ]);
  const plan = Array.from({ length: profile.entries }, (_, i) => {
    if (bonuses.has(i)) return { type: 'bonus' as const, points: 50, description: '' };
    const adjustment = adjustments.get(i);
    if (adjustment) return { type: 'adjustment' as const, points: adjustment, description: '' };
    return { type: 'rental-completed' as const, points: 10, description: '' };
  });
  const rentals = plan.filter((p) => p.type === 'rental-completed');
  let budget = target - plan.reduce((sum, p) => sum + p.points, 0);
  while (budget > 0 && rentals.some((p) => p.points < 60)) {
    const rental = rentals[Math.floor(random() * rentals.length)]!;
    const add = Math.min(budget, 60 - rental.points, 1 + Math.floor(random() * 20));
    rental.points += add;
    budget -= add;
  }
  return plan;
}

/** A short demo ledger: a welcome bonus and some rentals adding up to `target`. */
function fewRentals(profile: DemoProfile, target: number, random: () => number) {
  const rentalCount = profile.entries - 1;
  const base = (target * 0.85) / rentalCount;
  const rentals = Array.from({ length: rentalCount }, () => ({
    type: 'rental-completed' as const,
    points: Math.max(10, Math.round(base * (0.7 + 0.4 * random()))),
    description: '',
  }));
  const bonus = Math.max(10, target - rentals.reduce((sum, r) => sum + r.points, 0));
  return [{ type: 'bonus' as const, points: bonus, description: '' }, ...rentals];
}

/** The demo events of one customer, oldest first, spread over the last ~11 months before `now`. */
export function planDemoEvents(profile: DemoProfile, rules: readonly TierRule[], now: Date): DemoEvent[] {
  const random = seededRandom(`roadpass-demo-${profile.cc}`);
  const target = demoTarget(profile.tier, rules);
  const plan =
    profile.entries > 20 ? manyRentals(profile, target, random) : fewRentals(profile, target, random);
  const start = now.getTime() - SPAN_DAYS * DAY_MS;
  const step = (SPAN_DAYS * DAY_MS) / plan.length;
  const country = profile.cc.toUpperCase();
  return plan.map((p, i) => {
    const n = i + 1;
    return {
      sourceId: `demo:${profile.cc}:${n}`,
      type: p.type,
      points: p.points,
      // Within its slot and at least an hour before now, so every event is in the past.
      occurredAt: new Date(Math.min(start + i * step + random() * step * 0.8, now.getTime() - 3_600_000)),
      // A rental's reference, as the rental system would send it: the same in every language.
      description: p.type === 'rental-completed' ? `${country}-${(48_210 + n * 7).toString()}` : '',
    };
  });
}

export interface ReplayedLedger {
  rows: NewLedgerRow[];
  account: TierState & { balance: number; eventCount: number };
}

/**
 * The ledger rows and account state that applying `events` one by one, each at its own time, would
 * have produced (the same rules as the live service), then brought to `now`. Used to write demo data
 * in one insert instead of one transaction per event.
 */
export function replayLedger(
  customerId: string,
  events: readonly DemoEvent[],
  rules: readonly TierRule[],
  now: Date,
): ReplayedLedger {
  const sorted = [...events].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  let state: TierState = { tier: entryTier(rules), tierExpirationDate: null };
  const lots: Lot[] = [];
  const rows: NewLedgerRow[] = [];
  const collectedAt = (at: Date) => {
    const since = qualifyingWindowStart(at).getTime();
    return sorted
      .filter((e) => e.occurredAt.getTime() > since && e.occurredAt.getTime() <= at.getTime())
      .reduce((sum, e) => sum + e.points, 0);
  };
  sorted.forEach((event, i) => {
    if (event.points > 0) {
      lots.push({ id: event.sourceId, remaining: event.points, expiresAt: validityEnd(event.occurredAt) });
    } else {
      for (const change of takeOldestFirst(lots, -event.points).changed) {
        lots.find((lot) => lot.id === change.id)!.remaining = change.remaining;
      }
    }
    state = nextTierState(state, collectedAt(event.occurredAt), event.occurredAt, rules);
    rows.push({
      customer_id: customerId,
      seq: i + 1,
      source_id: event.sourceId,
      type: event.type,
      points: event.points,
      occurred_at: event.occurredAt,
      expires_at: event.points > 0 ? validityEnd(event.occurredAt) : null,
      remaining_points: 0,
      description: event.description,
      tier_after: state.tier,
    });
  });
  for (const row of rows) row.remaining_points = lots.find((lot) => lot.id === row.source_id)?.remaining ?? 0;
  state = nextTierState(state, collectedAt(now), now, rules);
  return {
    rows,
    account: {
      ...state,
      balance: lots.reduce((sum, lot) => sum + lot.remaining, 0),
      eventCount: rows.length,
    },
  };
}

/** Whether a tier may use a reward unlocked in `unlockedIn`. */
export const unlocks = (tier: TierSlug, unlockedIn: TierSlug) => tierRank(tier) >= tierRank(unlockedIn);
