// Plain loyalty values shared by both halves. No TypeBox here: the browser bundle imports this module.

/** The loyalty programme's consent process (docs/product/constants.md#business-constants: ends with 89sN) and its core consent (ends with cC6D). */
export const LOYALTY_PROCESS_ID = 'loyalty-programme-89sN';
export const LOYALTY_CORE_CONSENT = 'loyalty-core-cC6D';

/** The consent set of the privacy page (docs/product/api.md#calls: "another set name may be given"). */
export const EDITABLE_BY_CUSTOMER_SET = 'editable-by-customer';

/** Tiers, lowest first (docs/product/loyalty.md#loyalty-rules). Thresholds are content, not code. */
export const tierSlugs = ['sky-blue', 'ocean-silver', 'royal-gold', 'sapphire-diamond'] as const;
export type TierSlug = (typeof tierSlugs)[number];

export function isTierSlug(value: unknown): value is TierSlug {
  return typeof value === 'string' && (tierSlugs as readonly string[]).includes(value);
}

/** Tier icon names of docs/product/data.md#entities-and-fields; anything unknown gets the generic icon. */
export const tierIconNames = [
  'generic',
  'ocean silver',
  'royal gold',
  'sapphire diamond',
  'sky blue',
] as const;
export type TierIconName = (typeof tierIconNames)[number];

export function tierIconName(slug: string | null | undefined): TierIconName {
  const name = (slug ?? '').replace(/-/g, ' ');
  return (tierIconNames as readonly string[]).includes(name) ? (name as TierIconName) : 'generic';
}

/** Icon sizes of docs/product/constants.md#business-constants, in CSS pixels. */
export const iconSizes = { xs: 24, sm: 28, md: 32, lg: 40 } as const;
export type IconSize = keyof typeof iconSizes;

/** History paging of docs/product/constants.md#business-constants: page size 100, first page index 0. The server allows 1…100. */
export const HISTORY_PAGE_SIZE = 100;
export const HISTORY_MAX_PAGE_SIZE = 100;
export const HISTORY_FIRST_PAGE = 0;
/** Highest page index a caller may ask for (10 million entries at page size 1). */
export const HISTORY_MAX_PAGE_INDEX = 10_000_000;

/** How points enter the ledger (docs/product/loyalty.md#loyalty-rules). Expiry entries are written by the server only. */
export const loyaltyEventTypes = ['rental-completed', 'bonus', 'adjustment', 'expiry'] as const;
export type LoyaltyEventType = (typeof loyaltyEventTypes)[number];
/** Types a service client or operator may send (expiry is the server's own). */
export const incomingLoyaltyEventTypes = ['rental-completed', 'bonus', 'adjustment'] as const;
export type IncomingLoyaltyEventType = (typeof incomingLoyaltyEventTypes)[number];

/** Points and tiers are valid for 12 months. */
export const LOYALTY_VALIDITY_MONTHS = 12;

/** The OAuth scope a service client needs for the internal loyalty endpoint. */
export const LOYALTY_EVENTS_SCOPE = 'loyalty:events';

/** The FAQ of the loyalty programme (docs/product/api.md#calls: /api/core-web/content/faq/{programme-faq-slug}). */
export const LOYALTY_FAQ_SLUG = 'loyalty-programme';
