import { randomBytes } from 'node:crypto';
import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import type { Db } from '../db/database.js';
import { saveConsent } from '../modules/consents/index.js';
import { createCustomerRepository, type Customer } from '../modules/customers/index.js';

/** Password of every customer made by createTestCustomer. */
export const TEST_CUSTOMER_PASSWORD = 'Member-2026!';

/** Grants (or withdraws) the loyalty programme's core consent, as the consent call would. */
export async function setLoyaltyConsent(db: Db, customer: Customer, granted = true): Promise<void> {
  await saveConsent(db, {
    customerId: customer.id,
    slug: LOYALTY_CORE_CONSENT,
    legalEntityId: customer.legal_entity_id,
    granted,
  });
}

export interface TestCustomerOptions {
  /** Joined the loyalty programme (default true). */
  member?: boolean;
  legalEntityId?: number;
}

/** A fresh customer of its own for one test (German by default), a loyalty member unless asked otherwise. */
export async function createTestCustomer(db: Db, options: TestCustomerOptions = {}): Promise<Customer> {
  const customer = await createCustomerRepository(db).create({
    email: `member-${randomBytes(6).toString('hex')}@example.com`,
    password: TEST_CUSTOMER_PASSWORD,
    legal_entity_id: options.legalEntityId ?? 10,
    language: 'de_DE',
    salutation: 'FRAU',
    first_name: 'Test',
    last_name: 'Member',
  });
  if (options.member ?? true) await setLoyaltyConsent(db, customer, true);
  return customer;
}

/** A demo customer by country code (demo.{cc}@example.com), with the core consent granted. */
export async function demoMember(db: Db, cc: string): Promise<Customer> {
  const customer = await createCustomerRepository(db).findByEmail(`demo.${cc}@example.com`);
  if (!customer) throw new Error(`demo.${cc}@example.com is not seeded`);
  await setLoyaltyConsent(db, customer, true);
  return customer;
}
