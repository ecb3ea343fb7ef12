import {
  countryCodes,
  languages,
  legalEntities,
  LOYALTY_FAQ_SLUG,
  type ConsentDefinition,
  type Faq,
  type Language,
  type TierList,
  type TierReward,
  type TierSlug,
} from '@roadpass/contracts';
import { loadConsentContent, type LoadedConsents } from './consent-content.js';
import { ContentProblems } from './content-problems.js';
import { loadProgramme, type LoadedProgramme } from './loyalty-programme.js';

/** Where the content images are served; image URLs in the API start with it. */
export const LOYALTY_IMAGES_PATH = '/content/loyalty/images/';

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
  /** The reward if it is offered in that country (ISO code), else undefined. */
  rewardRule(slug: string, legalEntityIso: string): RewardRule | undefined;
  /** Tiers lowest first with the rewards offered in that country; [] for a country that is not ours. */
  tiers(language: Language, legalEntityIso: string): TierList;
  faq(slug: string, language: Language): Faq | undefined;
  /** Consent definitions of a legal entity, texts in `language`; [] for an unknown legal entity. */
  consentDefinitions(legalEntityId: number, language: Language): ConsentDefinition[];
  /** Every consent set named in the definitions (e.g. editable-by-customer). */
  consentSets: readonly string[];
  /** Every consent process named in the definitions (e.g. loyalty-programme-89sN). */
  consentProcesses: readonly string[];
}

/** The rewards of a tier list, for the reward page and tests. */
export type { TierReward };

/**
 * Loads content/loyalty/ and content/consents/ and checks them; throws one error listing every
 * problem (file and field), so bad content stops the server at start, never a request.
 */
export async function loadLoyaltyContent(contentDir: string): Promise<LoyaltyContent> {
  const problems = new ContentProblems(contentDir);
  const programme = await loadProgramme(contentDir, problems);
  const consents = await loadConsentContent(contentDir, problems);
  problems.throwIfAny('loyalty content');
  return answersFrom(programme, consents);
}

const key = (a: string | number, b: string) => `${a}|${b}`;

/** Everything the accessors can be asked, computed once: per language × legal entity. */
function answersFrom(programme: LoadedProgramme, consents: LoadedConsents): LoyaltyContent {
  const imageUrl = (file: string) =>
    `${LOYALTY_IMAGES_PATH}${file}?v=${programme.imageVersions.get(file) ?? ''}`;

  const tierLists = new Map<string, TierList>();
  for (const language of languages) {
    const texts = programme.texts[language];
    for (const iso of countryCodes) {
      const offered = programme.rewards.filter((r) => r.legalEntities.includes(iso));
      const tiers: TierList = programme.tiers.map((tier) => ({
        slug: tier.slug as TierSlug,
        threshold: tier.threshold,
        information: {
          title: { id: tier.titleId, text: texts.tiers[tier.slug]!.title },
          text: texts.tiers[tier.slug]!.text,
          image: imageUrl(tier.image),
        },
        rewards: offered.flatMap((reward): TierReward[] => {
          const benefit = reward.benefits.find((b) => b.titleId === tier.titleId && b.showOnCard);
          if (!benefit) return [];
          const rewardTexts = texts.rewards[reward.slug]!;
          return [
            {
              slug: reward.slug,
              unlockedIn: reward.unlockedIn as TierSlug,
              title: rewardTexts.title,
              benefitText: rewardTexts.benefits[benefit.titleId]!,
              description: rewardTexts.description,
              howTo: rewardTexts.howTo,
              image: imageUrl(reward.image),
              partnerCode: reward.partnerCode,
              partnerName: reward.partnerName,
            },
          ];
        }),
      }));
      tierLists.set(key(language, iso), deepFreeze(tiers));
    }
  }

  const rewardRules = new Map<string, RewardRule>();
  for (const reward of programme.rewards) {
    const rule: RewardRule = deepFreeze({
      slug: reward.slug,
      unlockedIn: reward.unlockedIn as TierSlug,
      partnerCode: reward.partnerCode,
      legalEntities: [...reward.legalEntities],
    });
    for (const iso of reward.legalEntities) rewardRules.set(key(reward.slug, iso), rule);
  }

  const faqs = new Map<Language, Faq>(
    languages.map((language) => [
      language,
      deepFreeze({ slug: LOYALTY_FAQ_SLUG, language, entries: programme.faq[language].entries }),
    ]),
  );

  const definitions = new Map<string, ConsentDefinition[]>();
  for (const entity of legalEntities) {
    for (const language of languages) {
      const list = consents.consents
        .filter((c) => c.legalEntities.includes(entity.isoCountry))
        .map((c) => ({
          slug: c.slug,
          processes: [...c.processes],
          sets: [...c.sets],
          required: c.required,
          language,
          title: consents.texts[language][c.slug]!.title,
          description: consents.texts[language][c.slug]!.description,
        }));
      definitions.set(key(entity.legalEntityId, language), deepFreeze(list));
    }
  }

  return {
    tierRules: deepFreeze(programme.tiers.map((t) => ({ slug: t.slug as TierSlug, threshold: t.threshold }))),
    rewardRule: (slug, iso) => rewardRules.get(key(slug, iso.toUpperCase())),
    tiers: (language, iso) => tierLists.get(key(language, iso.toUpperCase())) ?? [],
    faq: (slug, language) => (slug === LOYALTY_FAQ_SLUG ? faqs.get(language) : undefined),
    consentDefinitions: (legalEntityId, language) => definitions.get(key(legalEntityId, language)) ?? [],
    consentSets: deepFreeze([...new Set(consents.consents.flatMap((c) => c.sets))]),
    consentProcesses: deepFreeze([...new Set(consents.consents.flatMap((c) => c.processes))]),
  };
}

/** The precomputed answers are shared by every request: frozen, so none can change them for the next. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
