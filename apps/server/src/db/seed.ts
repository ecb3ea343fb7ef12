import { legalEntities } from '@roadpass/contracts';
import type { Db } from './database.js';
import { withStartupLock } from './startup-lock.js';
import { startStep } from '../lib/start-step.js';
import { seedDemoConsents } from '../modules/consents/index.js';
import type { LoyaltyContent } from '../modules/content/index.js';
import { seedDemoLoyalty } from '../modules/loyalty/index.js';
import { seedDemoNewsletter, type NewsletterService } from '../modules/newsletter/index.js';
import { seedDemoPaymentProfiles } from '../modules/payment-profiles/index.js';
import { seedDemoCustomers } from '../modules/customers/index.js';

/** Reference data every environment needs: the legal entity table of docs/product/data.md#entities-and-fields. */
export async function seedReferenceData(db: Db): Promise<void> {
  await db
    .insertInto('legal_entities')
    .values(
      legalEntities.map((e) => ({
        legal_entity_id: e.legalEntityId,
        iso_country: e.isoCountry,
        languages: e.languages,
        is_active: e.isActive,
        is_registration_active: e.isRegistrationActive,
        is_address_editing_disabled: e.isAddressEditingDisabled,
      })),
    )
    // Any unique key, not only the id: two instances starting at once insert the same rows, and the
    // later one must skip them whichever of the table's unique keys it meets first (iso_country too).
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * All demo data of docs/product/demo-data.md#demo-customers (outside production), each part seeded by the module it
 * belongs to: customers, consents and loyalty states, then newsletter agreements (whose e-mails need
 * the module's service) and payment profiles. Instances starting at once on one database take turns
 * (each part checks what exists first).
 */
export async function seedDemoData(
  db: Db,
  { loyaltyContent, newsletter }: { loyaltyContent: LoyaltyContent; newsletter: NewsletterService },
): Promise<void> {
  await startStep('demo data', () =>
    withStartupLock(db, 'demo data', async (connection) => {
      await seedDemoCustomers(connection);
      await seedDemoConsents(connection);
      await seedDemoLoyalty(connection, loyaltyContent);
    }),
  );
  await startStep('demo newsletter', () => seedDemoNewsletter(db, newsletter));
  await startStep('demo payment profiles', () => seedDemoPaymentProfiles(db));
}
