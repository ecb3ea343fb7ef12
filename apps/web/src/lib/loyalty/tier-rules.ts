import { tierSlugs, type Tier, type TierList, type TierSlug } from '@roadpass/contracts';

/** Position of a tier, lowest first (docs/product/loyalty.md#loyalty-rules); -1 for anything unknown. */
export function tierRank(slug: string): number {
  return (tierSlugs as readonly string[]).indexOf(slug);
}

/** Rewards are unlocked by tier: available from `unlockedIn` upwards. */
export function isUnlockedFor(unlockedIn: TierSlug, customerTier: TierSlug | undefined): boolean {
  return customerTier !== undefined && tierRank(customerTier) >= tierRank(unlockedIn);
}

export interface TierProgress {
  current: Tier | undefined;
  /** The next tier up; null at the top tier. */
  next: Tier | null;
  /** Points still needed for the next tier (0 at the top or when already enough). */
  pointsToNext: number;
  /** 0…1 between the current tier's threshold and the next one's; 1 at the top. */
  progress: number;
}

/** How far the customer is from the next tier; thresholds come from the tiers content. */
export function tierProgress(tiers: TierList, tier: TierSlug, points: number): TierProgress {
  const ordered = [...tiers].sort((a, b) => tierRank(a.slug) - tierRank(b.slug));
  const current = ordered.find((candidate) => candidate.slug === tier);
  const next = ordered.find((candidate) => tierRank(candidate.slug) > tierRank(tier)) ?? null;
  if (!next) return { current, next: null, pointsToNext: 0, progress: 1 };
  const floor = current?.threshold ?? 0;
  const span = Math.max(1, next.threshold - floor);
  return {
    current,
    next,
    pointsToNext: Math.max(0, next.threshold - points),
    progress: Math.min(1, Math.max(0, (points - floor) / span)),
  };
}

/** The tier a reward is unlocked in, from the content; undefined when unknown. */
export function findTier(tiers: TierList, slug: string): Tier | undefined {
  return tiers.find((tier) => tier.slug === slug);
}

/** The first listing of a reward in the tiers content (the same reward may appear under several tiers). */
export function findReward(tiers: TierList, slug: string) {
  for (const tier of tiers) {
    const reward = tier.rewards.find((candidate) => candidate.slug === slug);
    if (reward) return reward;
  }
  return undefined;
}
