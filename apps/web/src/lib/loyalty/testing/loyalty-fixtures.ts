import {
  LOYALTY_CORE_CONSENT,
  type CustomerConsent,
  type LoyaltyExpiryForecast,
  type LoyaltyHistoryEntry,
  type LoyaltyHistoryPage,
  type LoyaltyTierDetails,
  type Tier,
  type TierList,
  type TierReward,
  type TierSlug,
} from '@roadpass/contracts';

// Test data in the shapes of the contracts, for the loyalty unit tests.

export const coreConsent = (granted: boolean): CustomerConsent => ({
  slug: LOYALTY_CORE_CONSENT,
  granted,
  legalEntityId: 10,
});

export function reward(slug: string, unlockedIn: TierSlug, overrides: Partial<TierReward> = {}): TierReward {
  return {
    slug,
    unlockedIn,
    title: `Reward ${slug}`,
    benefitText: `Benefit of ${slug}`,
    description: `Description of ${slug}`,
    howTo: `How to use ${slug}`,
    image: `/content/loyalty/images/${slug}.svg`,
    partnerCode: false,
    partnerName: '',
    ...overrides,
  };
}

function tier(slug: TierSlug, title: string, threshold: number, rewards: TierReward[]): Tier {
  return {
    slug,
    threshold,
    information: {
      title: { id: slug, text: title },
      text: `About ${title}`,
      image: `/content/loyalty/images/${slug}.svg`,
    },
    rewards,
  };
}

export const partnerReward = reward('city-bike', 'royal-gold', {
  title: 'CityBike minutes',
  partnerCode: true,
  partnerName: 'CityBike',
});

export const tiers: TierList = [
  tier('sky-blue', 'Sky Blue', 0, [reward('welcome-drive', 'sky-blue')]),
  tier('ocean-silver', 'Ocean Silver', 1000, [
    reward('welcome-drive', 'sky-blue'),
    reward('free-parking', 'ocean-silver'),
  ]),
  tier('royal-gold', 'Royal Gold', 3000, [reward('free-parking', 'ocean-silver'), partnerReward]),
  tier('sapphire-diamond', 'Sapphire Diamond', 6000, [
    partnerReward,
    reward('airport-pickup', 'sapphire-diamond'),
  ]),
];

export const royalGoldDetails: LoyaltyTierDetails = {
  points: 4750,
  tier: 'royal-gold',
  tierExpirationDate: '2026-11-30T00:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

/** The royal gold member's forecast: 850 points on 1 March, 500 more to keep the tier by 30 November. */
export const royalGoldForecast: LoyaltyExpiryForecast = {
  months: [
    ['2026-03', 850],
    ['2026-04', 0],
    ['2026-05', 320],
    ['2026-06', 1200],
    ['2026-07', 0],
    ['2026-08', 410],
    ['2026-09', 0],
    ['2026-10', 75],
    ['2026-11', 600],
    ['2026-12', 0],
    ['2027-01', 980],
    ['2027-02', 315],
  ].map(([month, points]) => ({ month: month as string, points: points as number })),
  nextExpiry: { points: 850, date: '2026-03-01T09:00:00.000Z' },
  tierKeep: { tier: 'royal-gold', date: '2026-11-30T00:00:00.000Z', pointsNeeded: 500 },
  reminderDays: [30, 7],
};

export function historyEntry(
  index: number,
  overrides: Partial<LoyaltyHistoryEntry> = {},
): LoyaltyHistoryEntry {
  return {
    id: `entry-${index}`,
    type: 'rental-completed',
    points: 100 + index,
    tier: 'royal-gold',
    occurredAt: '2026-02-01T09:30:00.000Z',
    expirationDate: '2027-02-01T00:00:00.000Z',
    description: '',
    ...overrides,
  };
}

/** Page `pageIndex` of a history with `total` entries, 100 per page. */
export function historyPage(pageIndex: number, total: number, pageSize = 100): LoyaltyHistoryPage {
  const first = pageIndex * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - first));
  return {
    content: Array.from({ length: count }, (_, i) => historyEntry(first + i)),
    totalPages: Math.ceil(total / pageSize),
    totalElements: total,
    pageIndex,
    pageSize,
  };
}
