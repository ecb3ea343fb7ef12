import { legalEntities } from '@roadpass/contracts';
import type { Db } from './database.js';
import { withStartupLock } from './startup-lock.js';
import { createCustomerRepository } from '../modules/customers/customer-repository.js';
import { seedDemoConsents } from '../modules/consents/demo-consents.js';
import type { LoyaltyContent } from '../modules/content/loyalty-content.js';
import { seedDemoLoyalty } from '../modules/loyalty/demo-loyalty.js';

/** Reference data every environment needs: the legal entity table of spec §3. */
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
    .onConflict((oc) => oc.column('legal_entity_id').doNothing())
    .execute();
}

export const DEMO_PASSWORD = 'Demo-2026!';

const demoNames: Record<
  string,
  { firstName: string; lastName: string; salutation: 'HERR' | 'FRAU'; city: string; zip: string }
> = {
  NL: { firstName: 'Noor', lastName: 'de Vries', salutation: 'FRAU', city: 'Amsterdam', zip: '1012 AB' },
  AT: { firstName: 'Lukas', lastName: 'Gruber', salutation: 'HERR', city: 'Wien', zip: '1010' },
  FR: { firstName: 'Camille', lastName: 'Martin', salutation: 'FRAU', city: 'Paris', zip: '75001' },
  DE: { firstName: 'Dora', lastName: 'Demo', salutation: 'FRAU', city: 'Berlin', zip: '10115' },
  IT: { firstName: 'Giulia', lastName: 'Rossi', salutation: 'FRAU', city: 'Milano', zip: '20121' },
  ES: { firstName: 'Javier', lastName: 'García', salutation: 'HERR', city: 'Madrid', zip: '28001' },
  HU: { firstName: 'Bence', lastName: 'Nagy', salutation: 'HERR', city: 'Budapest', zip: '1051' },
  DK: { firstName: 'Freja', lastName: 'Jensen', salutation: 'FRAU', city: 'København', zip: '1050' },
};

/** Demo customers of product decisions §3: demo.{cc}@example.com / Demo-2026!, one per legal entity. */
export async function seedDemoCustomers(db: Db): Promise<void> {
  const customers = createCustomerRepository(db);
  for (const entity of legalEntities) {
    const email = `demo.${entity.isoCountry.toLowerCase()}@example.com`;
    if (await customers.findByEmail(email)) continue;
    const names = demoNames[entity.isoCountry]!;
    await customers.create({
      email,
      password: DEMO_PASSWORD,
      legal_entity_id: entity.legalEntityId,
      language: `${entity.languages[0]}_${entity.isoCountry}`,
      salutation: names.salutation,
      first_name: names.firstName,
      last_name: names.lastName,
      address_city: names.city,
      address_zip_code: names.zip,
      address_country_iso_code: entity.isoCountry,
    });
  }
}

/**
 * All demo data of product decisions §3 (outside production): customers, consents, loyalty states.
 * Instances starting at once on one database take turns (each part checks what exists first).
 */
export async function seedDemoData(db: Db, content: LoyaltyContent): Promise<void> {
  await withStartupLock(db, 'demo data', async (connection) => {
    await seedDemoCustomers(connection);
    await seedDemoConsents(connection);
    await seedDemoLoyalty(connection, content);
  });
}
