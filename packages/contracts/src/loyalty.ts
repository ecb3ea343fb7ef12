import Type from 'typebox';
import {
  HISTORY_FIRST_PAGE,
  HISTORY_MAX_PAGE_INDEX,
  HISTORY_MAX_PAGE_SIZE,
  HISTORY_PAGE_SIZE,
} from './loyalty-constants.js';

export const TierSlugSchema = Type.Union([
  Type.Literal('sky-blue'),
  Type.Literal('ocean-silver'),
  Type.Literal('royal-gold'),
  Type.Literal('sapphire-diamond'),
]);

export const LoyaltyEventTypeSchema = Type.Union([
  Type.Literal('rental-completed'),
  Type.Literal('bonus'),
  Type.Literal('adjustment'),
  Type.Literal('expiry'),
]);

export const IncomingLoyaltyEventTypeSchema = Type.Union([
  Type.Literal('rental-completed'),
  Type.Literal('bonus'),
  Type.Literal('adjustment'),
]);

/** Path parameter {uuid}: the signed-in customer's own id (403 for any other). */
export const CustomerUuidParam = Type.String({ format: 'uuid' });

/** GET /api/customer/loyalty-service/customer/{uuid}: tier details (docs/product/data.md#entities-and-fields). */
export const LoyaltyTierDetails = Type.Object({
  /** Points collected in the last 12 months that have not expired. */
  points: Type.Integer({ minimum: 0 }),
  tier: TierSlugSchema,
  /** When the tier is computed again; null for the entry tier. */
  tierExpirationDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type LoyaltyTierDetails = Type.Static<typeof LoyaltyTierDetails>;

/** One entry of the points history. */
export const LoyaltyHistoryEntry = Type.Object({
  id: Type.String(),
  type: LoyaltyEventTypeSchema,
  /** Signed: expiry and negative adjustments are below zero. */
  points: Type.Integer(),
  /** The tier after this entry. */
  tier: TierSlugSchema,
  occurredAt: Type.String({ format: 'date-time' }),
  /** When these points expire; null for entries that do not add points. */
  expirationDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Short operator or source text, e.g. the rental reference; may be empty. */
  description: Type.String(),
});
export type LoyaltyHistoryEntry = Type.Static<typeof LoyaltyHistoryEntry>;

export const LoyaltyHistoryQuery = Type.Object(
  {
    page_size: Type.Integer({ minimum: 1, maximum: HISTORY_MAX_PAGE_SIZE, default: HISTORY_PAGE_SIZE }),
    page_index: Type.Integer({ minimum: 0, maximum: HISTORY_MAX_PAGE_INDEX, default: HISTORY_FIRST_PAGE }),
  },
  { additionalProperties: false },
);
export type LoyaltyHistoryQuery = Type.Static<typeof LoyaltyHistoryQuery>;

/** GET …/customer/{uuid}/history: one page, newest first. */
export const LoyaltyHistoryPage = Type.Object({
  content: Type.Array(LoyaltyHistoryEntry),
  totalPages: Type.Integer({ minimum: 0 }),
  totalElements: Type.Integer({ minimum: 0 }),
  pageIndex: Type.Integer({ minimum: 0 }),
  pageSize: Type.Integer({ minimum: 1 }),
});
export type LoyaltyHistoryPage = Type.Static<typeof LoyaltyHistoryPage>;

export const RewardSlug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' });

/** GET/POST …/customer/{uuid}/partner-code/{slug}: the customer's code for a partner reward. */
export const LoyaltyPartnerCode = Type.Object({
  slug: RewardSlug,
  code: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type LoyaltyPartnerCode = Type.Static<typeof LoyaltyPartnerCode>;

/** One incoming points event (internal endpoint and operator command). */
export const LoyaltyEventInput = Type.Object(
  {
    /** The id the source gave this event; the same id never counts twice for a customer. */
    sourceId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:/-]+$' }),
    customerId: Type.String({ format: 'uuid' }),
    type: IncomingLoyaltyEventTypeSchema,
    /** Positive for rentals and bonuses; an adjustment may be negative. Never zero. */
    points: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
    /** When it happened (default: now); not in the future, not older than 12 months. */
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
    description: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type LoyaltyEventInput = Type.Static<typeof LoyaltyEventInput>;

/** POST /api/internal/loyalty/events: up to 500 events at once. */
export const LoyaltyEventBatch = Type.Object(
  { events: Type.Array(LoyaltyEventInput, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
export type LoyaltyEventBatch = Type.Static<typeof LoyaltyEventBatch>;

/** What happened to one event: recorded, already known (duplicate) or refused (not a member). */
export const LoyaltyEventOutcome = Type.Object({
  sourceId: Type.String(),
  customerId: Type.String(),
  status: Type.Union([Type.Literal('recorded'), Type.Literal('duplicate'), Type.Literal('not-member')]),
  /** Human-readable explanation, e.g. "recorded 120 points; balance 3 120, tier royal-gold". */
  message: Type.String(),
  points: Type.Integer(),
  tier: Type.Union([TierSlugSchema, Type.Null()]),
});
export type LoyaltyEventOutcome = Type.Static<typeof LoyaltyEventOutcome>;

export const LoyaltyEventBatchResult = Type.Object({
  recorded: Type.Integer({ minimum: 0 }),
  duplicates: Type.Integer({ minimum: 0 }),
  refused: Type.Integer({ minimum: 0 }),
  outcomes: Type.Array(LoyaltyEventOutcome),
});
export type LoyaltyEventBatchResult = Type.Static<typeof LoyaltyEventBatchResult>;

/** Months the expiry forecast covers: this calendar month and the 11 after it (UTC). */
export const EXPIRY_FORECAST_MONTHS = 12;

/** One calendar month of the expiry forecast: the points that expire in it if nothing is spent. */
export const LoyaltyExpiryMonth = Type.Object({
  /** The month, `YYYY-MM` (UTC). */
  month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }),
  points: Type.Integer({ minimum: 0 }),
});
export type LoyaltyExpiryMonth = Type.Static<typeof LoyaltyExpiryMonth>;

/**
 * GET /api/customer/loyalty-service/customer/{uuid}/expiry-forecast (docs/product/loyalty.md#points-expiry-forecast):
 * what expires when, from the ledger's own lots as they stand after oldest-first spending, and what
 * keeps the tier at its next computation.
 */
export const LoyaltyExpiryForecast = Type.Object({
  /** Exactly EXPIRY_FORECAST_MONTHS months, oldest first, months without expiry with 0 points. */
  months: Type.Array(LoyaltyExpiryMonth),
  /** The next moment points expire and how many then; null when no points are waiting to expire. */
  nextExpiry: Type.Union([
    Type.Object({ points: Type.Integer({ minimum: 1 }), date: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
  /**
   * What keeps the current tier when it is computed again on `date`: `pointsNeeded` more points
   * collected by then (0: already enough). Null for the entry tier, which never lapses.
   */
  tierKeep: Type.Union([
    Type.Object({
      tier: TierSlugSchema,
      date: Type.String({ format: 'date-time' }),
      pointsNeeded: Type.Integer({ minimum: 0 }),
    }),
    Type.Null(),
  ]),
  /** Days before an expiry that reminders go out (the server's LOYALTY_REMINDER_DAYS), largest first. */
  reminderDays: Type.Array(Type.Integer({ minimum: 1, maximum: 365 })),
});
export type LoyaltyExpiryForecast = Type.Static<typeof LoyaltyExpiryForecast>;

/**
 * GET/PUT /api/customer/loyalty-service/customer/{uuid}/points-reminders (docs/product/account.md#points-reminders):
 * whether the customer gets points expiry reminders (a service message, on unless turned off).
 */
export const PointsReminderSetting = Type.Object(
  { pointsReminders: Type.Boolean() },
  { additionalProperties: false },
);
export type PointsReminderSetting = Type.Static<typeof PointsReminderSetting>;
