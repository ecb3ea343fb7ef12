import Type from 'typebox';
import { RewardSlug, TierSlugSchema } from './loyalty.js';

const ImageUrl = Type.String({
  description: 'Absolute path of an image served by the server, e.g. /content/loyalty/images/…svg',
});

/**
 * A reward as listed under a tier (docs/product/data.md#entities-and-fields). benefitText comes from the reward's benefit whose title id
 * matches this tier's title id and is flagged showOnCard; a reward appears under every tier that has
 * such a benefit. The reward page reads the same data (tiers are loaded once and reused).
 */
export const TierReward = Type.Object({
  slug: RewardSlug,
  /** The lowest tier in which the reward is available. */
  unlockedIn: TierSlugSchema,
  title: Type.String(),
  benefitText: Type.String(),
  /** Longer text for the reward page. */
  description: Type.String(),
  /** How to use the reward (or its partner code). */
  howTo: Type.String(),
  image: ImageUrl,
  /** True when the reward hands out a partner code. */
  partnerCode: Type.Boolean(),
  /** Partner named next to the code, e.g. "CityBike"; empty for other rewards. */
  partnerName: Type.String(),
});
export type TierReward = Type.Static<typeof TierReward>;

/** Tier (content), docs/product/data.md#entities-and-fields: slug, information (title with id and text, image url), rewards. */
export const Tier = Type.Object({
  slug: TierSlugSchema,
  /** Points collected in 12 months needed to reach the tier. */
  threshold: Type.Integer({ minimum: 0 }),
  information: Type.Object({
    title: Type.Object({ id: Type.String(), text: Type.String() }),
    text: Type.String(),
    image: ImageUrl,
  }),
  rewards: Type.Array(TierReward),
});
export type Tier = Type.Static<typeof Tier>;

/** GET /api/core-web/content/loyalty/tier/{locale}?legalEntity={iso}: tiers lowest first. */
export const TierList = Type.Array(Tier);
export type TierList = Type.Static<typeof TierList>;

export const TierContentQuery = Type.Object({
  legalEntity: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$' })),
});

export const FaqEntry = Type.Object({
  id: Type.String(),
  question: Type.String(),
  answer: Type.String(),
});

/** GET /api/core-web/content/faq/{slug}?language={locale} */
export const Faq = Type.Object({
  slug: Type.String(),
  language: Type.String(),
  entries: Type.Array(FaqEntry),
});
export type Faq = Type.Static<typeof Faq>;

export const FaqQuery = Type.Object({
  language: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2}([-_][a-zA-Z]{2})?$' })),
});
