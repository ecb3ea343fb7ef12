import { EXPIRY_FORECAST_MONTHS, type LoyaltyExpiryForecast, type TierSlug } from '@roadpass/contracts';
import type { TierRule } from '../content/index.js';
import { addMonths, entryTier, type Lot } from './loyalty-rules.js';

/** `YYYY-MM` of a moment, in UTC (the ledger's dates are UTC). */
const monthKey = (date: Date): string => date.toISOString().slice(0, 7);
/** Months and days as numbers, in UTC: compared for every lot (a date's ISO text cost a tenth of the call). */
const monthNumber = (date: Date): number => date.getUTCFullYear() * 12 + date.getUTCMonth();
const dayNumber = (date: Date): number => Math.floor(date.getTime() / 86_400_000);

export interface ForecastInput {
  now: Date;
  /**
   * The member's open lots: what each positive entry has left after the ledger's oldest-first
   * spending (negative adjustments take from the lot that expires first, loyalty-rules.ts).
   */
  lots: readonly Pick<Lot, 'remaining' | 'expiresAt'>[];
  tier: TierSlug;
  /** When the tier is computed again; null for the entry tier. */
  tierExpirationDate: Date | null;
  /** Points collected (signed, expiry entries left out) in the 12 months the tier will then count, up to now. */
  collectedForTier: number;
  rules: readonly TierRule[];
}

/**
 * The expiry forecast of docs/product/loyalty.md#points-expiry-forecast, a pure function of the ledger's
 * lots: the points that expire in each of the next 12 calendar months (this one first), the nearest
 * expiry (every lot expiring on that UTC day together) and the points still to collect before the
 * tier's next computation to keep it (loyalty-rules.ts `nextTierState`: at `tierExpirationDate` the
 * tier is computed again from the points of the 12 months before it).
 */
export function expiryForecast(input: ForecastInput): Omit<LoyaltyExpiryForecast, 'reminderDays'> {
  const { now, rules } = input;
  const open = input.lots
    .filter((lot) => lot.remaining > 0 && lot.expiresAt.getTime() > now.getTime())
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());

  const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const months = Array.from({ length: EXPIRY_FORECAST_MONTHS }, (_, i) => ({
    month: monthKey(addMonths(firstMonth, i)),
    points: 0,
  }));
  // months[i] is i months after this one.
  const thisMonth = monthNumber(now);
  for (const lot of open) {
    const month = months[monthNumber(lot.expiresAt) - thisMonth];
    if (month) month.points += lot.remaining;
  }

  const first = open[0];
  const firstDay = first && dayNumber(first.expiresAt);
  const nextExpiry = first
    ? {
        points: open
          .filter((lot) => dayNumber(lot.expiresAt) === firstDay)
          .reduce((sum, lot) => sum + lot.remaining, 0),
        date: first.expiresAt.toISOString(),
      }
    : null;

  const rule = rules.find((r) => r.slug === input.tier);
  const tierKeep =
    input.tierExpirationDate === null || !rule || input.tier === entryTier(rules)
      ? null
      : {
          tier: input.tier,
          date: input.tierExpirationDate.toISOString(),
          pointsNeeded: Math.max(0, rule.threshold - input.collectedForTier),
        };

  return { months, nextExpiry, tierKeep };
}
