import type { ConsentDefinition, Faq, Language, TierList, TierReward, TierSlug } from '@roadpass/contracts';

/** A tier's rule for the ledger: reached with `threshold` points collected in 12 months. */
export interface TierRule {
  slug: TierSlug;
  threshold: number;
}

/** A reward's rule for partner codes, independent of language. */
export interface RewardRule {
  slug: string;
  unlockedIn: TierSlug;
  partnerCode: boolean;
  /** ISO countries where the reward is offered. */
  legalEntities: string[];
}

/**
 * The loyalty programme's content (tiers, rewards, FAQ, consent definitions), loaded and checked once
 * at start from content/. Every accessor answers from memory.
 */
export interface LoyaltyContent {
  /** Lowest first; the first threshold is 0. */
  tierRules: readonly TierRule[];
  rewardRule(slug: string, legalEntityIso: string): RewardRule | undefined;
  tiers(language: Language, legalEntityIso: string): TierList;
  faq(slug: string, language: Language): Faq | undefined;
  /** Consent definitions of a legal entity, texts in `language`. */
  consentDefinitions(legalEntityId: number, language: Language): ConsentDefinition[];
}

/** The rewards of a tier list, for the reward page and tests. */
export type { TierReward };

/**
 * Loads content/loyalty/ and content/consents/ and checks them; throws one error listing every
 * problem. (Placeholder until the content work lands: default thresholds, no rewards, no FAQ.)
 */
export async function loadLoyaltyContent(_contentDir: string): Promise<LoyaltyContent> {
  const tierRules: TierRule[] = [
    { slug: 'sky-blue', threshold: 0 },
    { slug: 'ocean-silver', threshold: 1000 },
    { slug: 'royal-gold', threshold: 3000 },
    { slug: 'sapphire-diamond', threshold: 6000 },
  ];
  return {
    tierRules,
    rewardRule: () => undefined,
    tiers: () => [],
    faq: () => undefined,
    consentDefinitions: () => [],
  };
}
