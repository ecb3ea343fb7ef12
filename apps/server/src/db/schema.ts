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
  salutation: 'HERR' | 'FRAU';
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
}

/** Failed sign-in attempts, per hashed e-mail and per hashed IP address, for throttling. */
export interface LoginAttemptTable {
  id: Generated<string>;
  /** Decision 0010: an account's failures from unknown clients, a known device's, an address's. */
  scope: 'account' | 'device' | 'ip';
  subject: string;
  attempted_at: Timestamp;
}

/** A customer's answer to one consent; no row means not granted (spec §3). */
export interface CustomerConsentTable {
  customer_id: string;
  slug: string;
  legal_entity_id: number;
  granted: boolean;
  updated_at: Timestamp;
}

export interface Database extends LoyaltyTables {
  legal_entities: LegalEntityTable;
  customers: CustomerTable;
  app_secrets: AppSecretTable;
  oidc_model_instances: OidcModelInstanceTable;
  login_attempts: LoginAttemptTable;
  customer_consents: CustomerConsentTable;
}

export type CustomerRow = Selectable<CustomerTable>;
export type NewCustomerRow = Insertable<CustomerTable>;
export type CustomerUpdate = Updateable<CustomerTable>;
