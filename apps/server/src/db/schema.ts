import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { LoyaltyTables } from './schema-loyalty.js';

/** A timestamptz column with a database default: optional on insert. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface LegalEntityTable {
  legal_entity_id: number;
  iso_country: string;
  languages: string[];
  is_active: boolean;
  is_registration_active: boolean;
  is_address_editing_disabled: boolean;
}

export interface CustomerTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  legal_entity_id: number;
  language: string;
  salutation: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  birth_date: string | null;
  birth_place: string | null;
  fiscal_code: string | null;
  passport_id: string | null;
  phone: string | null;
  mobile_phone: string | null;
  address_street: string | null;
  address_additional_street: string | null;
  address_city: string | null;
  address_zip_code: string | null;
  address_province_iso_code: string | null;
  address_country_iso_code: string | null;
  student: Generated<boolean>;
  full_time_student: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Server-generated secrets (cookie keys, anti-forgery key), shared by every instance. */
export interface AppSecretTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

/** Every oidc-provider model instance (session, interaction, grant, code, token), payload as jsonb. */
export interface OidcModelInstanceTable {
  kind: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
  /** The customer the row belongs to (payload.accountId), indexed (migration 0012). */
  account_id: string | null;
}

/** Failed sign-in attempts, per hashed e-mail and per hashed IP address, for throttling. */
export interface LoginAttemptTable {
  id: Generated<string>;
  /** Decision 0010: an account's failures from unknown clients, a known device's, an address's. */
  scope: 'account' | 'device' | 'ip';
  subject: string;
  attempted_at: Timestamp;
}

/** A customer's answer to one consent; no row means not granted (docs/product/data.md#entities-and-fields). */
export interface CustomerConsentTable {
  customer_id: string;
  slug: string;
  legal_entity_id: number;
  granted: boolean;
  updated_at: Timestamp;
}

/** Every outbound e-mail and SMS (issue 8); shown at /dev/outbox outside production. */
export interface OutboxTable {
  id: Generated<string>;
  channel: 'email' | 'sms';
  /** What the message is for, e.g. email-confirmation, mobile-pin, newsletter. */
  kind: string;
  recipient: string;
  subject: string | null;
  body: string;
  customer_id: string | null;
  created_at: Timestamp;
  delivered_at: Date | null;
  delivery_error: string | null;
}

/** A new e-mail address waiting for its confirmation link (one per customer; only the token's hash). */
export interface EmailChangeTable {
  customer_id: string;
  new_email: string;
  token_hash: string;
  expires_at: Date;
  created_at: Timestamp;
}

/** A new mobile number waiting for its PIN (docs/product/account-rules.md#account-rules; only the PIN's hash). */
export interface MobileChangeTable {
  customer_id: string;
  mobile_phone: string;
  pin_hash: string;
  expires_at: Date;
  failed_attempts: ColumnType<number, number | undefined, number>;
  sent_at: Date;
}

/** Every PIN sent, for the resend limit. */
export interface MobilePinSendTable {
  customer_id: string;
  sent_at: Date;
}

export interface NewsletterAgreementTable {
  customer_id: string;
  /** The id the newsletter PUT and DELETE calls take. */
  id: Generated<string>;
  agreement: boolean;
  updated_at: Timestamp;
}

export interface NewsletterEventTable {
  id: Generated<string>;
  customer_id: string;
  action: 'SUBSCRIBE' | 'UNSUBSCRIBE';
  channel: 'WEB' | 'APP' | 'EMAIL' | 'REGISTRATION';
  occurred_at: Timestamp;
}

/** Unsubscribe links of newsletter e-mails: only the token's hash, single use, expiring. */
export interface UnsubscribeTokenTable {
  token_hash: string;
  customer_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface PaymentProfileTable {
  id: Generated<string>;
  customer_id: string;
  type: 'CARD' | 'SEPA';
  brand: 'VISA' | 'MASTERCARD' | 'AMEX' | 'OTHER' | null;
  last4: string | null;
  expiry_month: number | null;
  expiry_year: number | null;
  masked_iban: string | null;
  holder: string;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
}

/** An envelope the error reporting tunnel received (migration 0008). */
export interface ErrorReportTable {
  id: Generated<string>;
  received_at: Timestamp;
  event_id: string | null;
  /** The envelope's item types, comma-separated (event, feedback, session, …). */
  item_types: string;
  envelope: string;
  size_bytes: number;
  /** null: not forwarded (no receiver); otherwise the receiver's HTTP status or the failure. */
  forward_status: string | null;
}

/** docs/product/security.md#security-activity */
export interface SecurityEventTable {
  id: Generated<string>;
  customer_id: string;
  kind: string;
  occurred_at: Generated<Date>;
  details: Generated<Record<string, unknown>>;
}

/** A session that ended: its access tokens are refused until they would have expired anyway. */
export interface EndedSessionTable {
  sid: string;
  customer_id: string;
  reason: string;
  ended_at: Generated<Date>;
  expires_at: Date;
}

/** What the customer sees of a session (docs/product/security.md#sessions). */
export interface SessionDeviceTable {
  sid: string;
  customer_id: string;
  user_agent: Generated<string>;
  address: Generated<string>;
  signed_in_at: Generated<Date>;
  last_active_at: Generated<Date>;
  expires_at: Date;
}

/** A single-use link without login of account recovery (migration 0013). */
export interface RecoveryTokenTable {
  token_hash: string;
  customer_id: string;
  /** 'reset' (set a new password), 'not_me' (end every session), 'sign_in' (after a reset). */
  purpose: string;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

/** When a customer first signed in (the first sign-in ever sends no new-device notice). */
export interface CustomerSignInTable {
  customer_id: string;
  first_at: Generated<Date>;
}

/** docs/product/data-rights.md#download-my-data: one export job; its ZIP lives in data_export_chunks. */
export interface DataExportTable {
  id: Generated<string>;
  customer_id: string;
  state: ColumnType<
    'queued' | 'running' | 'ready' | 'failed',
    'queued' | undefined,
    'queued' | 'running' | 'ready' | 'failed'
  >;
  progress_percent: ColumnType<number, number | undefined, number>;
  requested_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  locked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  ready_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** bigint: text from pg, a number from PGlite; read it with Number(). */
  size_bytes: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface DataExportChunkTable {
  export_id: string;
  n: number;
  bytes: Uint8Array;
}

/** docs/product/data-rights.md#close-my-account */
export interface AccountDeletionTable {
  customer_id: string;
  requested_at: Timestamp;
  scheduled_for: Date;
  last_email_sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  locked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface DeletionBlockerTable {
  customer_id: string;
  legal_entity_id: number;
  kind: 'open_rental' | 'unpaid_invoice' | 'pending_fine';
  reference: string;
  reported_at: Timestamp;
}

/** The erasure feed the rental system reads (GET /api/internal/account/erasures). */
export interface ErasureTable {
  cursor: ColumnType<string | number, never, never>;
  customer_id: string;
  legal_entity_id: number;
  erased_at: Timestamp;
}

/** Ledger rows of erased customers, under a random pseudonym with no mapping kept. */
export interface LoyaltyLedgerArchiveTable {
  pseudonym_id: string;
  legal_entity_id: number;
  seq: number;
  type: string;
  points: number;
  occurred_at: Date;
  expires_at: Date | null;
  tier_after: string;
}

export interface ErasedConsentCountTable {
  slug: string;
  legal_entity_id: number;
  granted: boolean;
  count: number;
}

/** docs/product/security.md#passkeys: one WebAuthn credential of a customer. */
export interface PasskeyTable {
  id: Generated<string>;
  customer_id: string;
  credential_id: string;
  public_key: Uint8Array;
  /** bigint: the driver answers a string. */
  counter: ColumnType<string, number | undefined, number>;
  transports: ColumnType<string[], string | undefined, string>;
  aaguid: string;
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

/** A pending WebAuthn challenge: single-use, short-lived (docs/product/security.md#passkeys). */
export interface WebauthnChallengeTable {
  challenge: string;
  purpose: 'registration' | 'authentication';
  customer_id: string | null;
  interaction_uid: string | null;
  expires_at: Date;
}

/** DPoP proofs the API accepted (decision 0044): a second use is refused on every instance. */
export interface DpopProofTable {
  /** base64url SHA-256 of the key thumbprint and the proof's jti. */
  id: string;
  expires_at: Date;
}

export interface Database extends LoyaltyTables {
  legal_entities: LegalEntityTable;
  customers: CustomerTable;
  app_secrets: AppSecretTable;
  oidc_model_instances: OidcModelInstanceTable;
  login_attempts: LoginAttemptTable;
  customer_consents: CustomerConsentTable;
  outbox: OutboxTable;
  email_changes: EmailChangeTable;
  mobile_changes: MobileChangeTable;
  mobile_pin_sends: MobilePinSendTable;
  newsletter_agreements: NewsletterAgreementTable;
  newsletter_events: NewsletterEventTable;
  unsubscribe_tokens: UnsubscribeTokenTable;
  payment_profiles: PaymentProfileTable;
  error_reports: ErrorReportTable;
  security_events: SecurityEventTable;
  ended_sessions: EndedSessionTable;
  session_devices: SessionDeviceTable;
  recovery_tokens: RecoveryTokenTable;
  customer_sign_ins: CustomerSignInTable;
  data_exports: DataExportTable;
  data_export_chunks: DataExportChunkTable;
  account_deletions: AccountDeletionTable;
  deletion_blockers: DeletionBlockerTable;
  erasures: ErasureTable;
  loyalty_ledger_archive: LoyaltyLedgerArchiveTable;
  erased_consent_counts: ErasedConsentCountTable;
  passkeys: PasskeyTable;
  webauthn_challenges: WebauthnChallengeTable;
  dpop_proofs: DpopProofTable;
}

export type CustomerRow = Selectable<CustomerTable>;
export type PaymentProfileRow = Selectable<PaymentProfileTable>;
export type NewPaymentProfileRow = Insertable<PaymentProfileTable>;
export type NewCustomerRow = Insertable<CustomerTable>;
export type CustomerUpdate = Updateable<CustomerTable>;
