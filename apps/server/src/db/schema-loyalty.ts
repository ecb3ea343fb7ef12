import type { ColumnType, Generated } from 'kysely';
import type { LoyaltyEventType, TierSlug } from '@roadpass/contracts';

/** A timestamptz column with a database default: optional on insert. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint identity: PostgreSQL (pg) returns it as text, PGlite as a number. Read it with String(). */
type BigIntId = ColumnType<string | number, never, never>;

/** One row per loyalty member, created when their first event or request arrives. */
export interface LoyaltyAccountTable {
  customer_id: string;
  /** Points left: the sum of remaining_points of the customer's unexpired lots. */
  balance: Generated<number>;
  tier: Generated<TierSlug>;
  /** When the tier is computed again; null for the entry tier. */
  tier_expiration_date: Date | null;
  /** Number of ledger entries = the highest seq (dense, starting at 1). */
  event_count: Generated<number>;
  updated_at: Timestamp;
}

/** The ledger: append-only, one row per event (expiry entries included). */
export interface LoyaltyEventTable {
  id: BigIntId;
  customer_id: string;
  seq: number;
  source_id: string;
  type: LoyaltyEventType;
  points: number;
  occurred_at: Date;
  expires_at: Date | null;
  remaining_points: Generated<number>;
  description: Generated<string>;
  tier_after: TierSlug;
  recorded_at: Timestamp;
}

export interface LoyaltyPartnerCodeTable {
  customer_id: string;
  slug: string;
  code: string;
  created_at: Timestamp;
}

/** One reminder of one expiring lot (migration 0015): the key (event_id, kind) makes it once only. */
export interface LoyaltyExpiryReminderTable {
  event_id: ColumnType<string | number, string | number, never>;
  kind: string;
  customer_id: string;
  expires_at: Date;
  points: number;
  outbox_id: string | null;
  created_at: Timestamp;
}

/** The customer's "Points reminders" choice; no row means on (migration 0015). */
export interface PointsReminderSettingTable {
  customer_id: string;
  points_reminders: boolean;
  updated_at: Timestamp;
}

/** Tables of the loyalty module (ledger, accounts, partner codes, expiry reminders). */
export interface LoyaltyTables {
  loyalty_accounts: LoyaltyAccountTable;
  loyalty_events: LoyaltyEventTable;
  loyalty_partner_codes: LoyaltyPartnerCodeTable;
  loyalty_expiry_reminders: LoyaltyExpiryReminderTable;
  points_reminder_settings: PointsReminderSettingTable;
}
