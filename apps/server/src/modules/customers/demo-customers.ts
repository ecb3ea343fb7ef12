import { legalEntities } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { createCustomerRepository } from './customer-repository.js';

export const DEMO_PASSWORD = 'Demo-2026!';

interface DemoProfile {
  firstName: string;
  lastName: string;
  salutation: string;
  street: string;
  city: string;
  zip: string;
  birthDate: string;
  phone: string;
  birthPlace?: string;
  fiscalCode?: string;
  province?: string;
  passportId?: string;
}

/** Realistic profiles that pass their country's served rules (content/account-rules; tested). */
const demoProfiles: Record<string, DemoProfile> = {
  NL: {
    firstName: 'Noor',
    lastName: 'de Vries',
    salutation: 'FRAU',
    street: 'Damrak 1',
    city: 'Amsterdam',
    zip: '1012 AB',
    birthDate: '1988-04-12',
    phone: '+31612345678',
  },
  AT: {
    firstName: 'Lukas',
    lastName: 'Gruber',
    salutation: 'HERR',
    street: 'Stephansplatz 1',
    city: 'Wien',
    zip: '1010',
    birthDate: '1985-09-30',
    phone: '+436641234567',
  },
  FR: {
    firstName: 'Camille',
    lastName: 'Martin',
    salutation: 'FRAU',
    street: '1 Rue de Rivoli',
    city: 'Paris',
    zip: '75001',
    birthDate: '1992-01-20',
    phone: '+33612345678',
  },
  DE: {
    firstName: 'Dora',
    lastName: 'Demo',
    salutation: 'FRAU',
    street: 'Unter den Linden 1',
    city: 'Berlin',
    zip: '10115',
    birthDate: '1990-06-01',
    phone: '+4915123456789',
  },
  // Fiscal code of Giulia Rossi, born in Milano (F205) on 15 March 1990, with its check character.
  IT: {
    firstName: 'Giulia',
    lastName: 'Rossi',
    salutation: 'FRAU',
    street: 'Via Dante 1',
    city: 'Milano',
    zip: '20121',
    birthDate: '1990-03-15',
    phone: '+393331234567',
    birthPlace: 'Milano',
    fiscalCode: 'RSSGLI90C55F205T',
  },
  // Province 28 (Madrid, INE code) and a post code starting with it.
  ES: {
    firstName: 'Javier',
    lastName: 'García',
    salutation: 'HERR',
    street: 'Calle de Alcalá 1',
    city: 'Madrid',
    zip: '28001',
    birthDate: '1987-11-05',
    phone: '+34612345678',
    province: '28',
    passportId: '12345678Z',
  },
  HU: {
    firstName: 'Bence',
    lastName: 'Nagy',
    salutation: 'HERR',
    street: 'Október 6. utca 1',
    city: 'Budapest',
    zip: '1051',
    birthDate: '1991-02-14',
    phone: '+36301234567',
  },
  DK: {
    firstName: 'Freja',
    lastName: 'Jensen',
    salutation: 'FRAU',
    street: 'Kongens Nytorv 1',
    city: 'København',
    zip: '1050',
    birthDate: '1993-07-23',
    phone: '+4520123456',
  },
};

/** Demo customers of docs/product/demo-data.md#demo-customers: demo.{cc}@example.com / Demo-2026!, one per legal entity. */
export async function seedDemoCustomers(db: Db): Promise<void> {
  const customers = createCustomerRepository(db);
  for (const entity of legalEntities) {
    const email = `demo.${entity.isoCountry.toLowerCase()}@example.com`;
    if (await customers.findByEmail(email)) continue;
    await createDemoCustomer(db, entity.isoCountry, email);
  }
}

/**
 * A customer with the demo profile of a country under another address (password Demo-2026!): the
 * demo customers' seed, and browser tests that need a customer of their own (test mode only,
 * plugins/fault-injection.ts).
 */
export async function createDemoCustomer(db: Db, isoCountry: string, email: string): Promise<void> {
  const entity = legalEntities.find((e) => e.isoCountry === isoCountry);
  const p = demoProfiles[isoCountry];
  if (!entity || !p) throw new Error(`no demo profile for ${isoCountry}`);
  await createCustomerRepository(db).create({
    email,
    password: DEMO_PASSWORD,
    legal_entity_id: entity.legalEntityId,
    language: `${entity.languages[0]}_${entity.isoCountry}`,
    salutation: p.salutation,
    first_name: p.firstName,
    last_name: p.lastName,
    birth_date: p.birthDate,
    birth_place: p.birthPlace ?? null,
    fiscal_code: p.fiscalCode ?? null,
    passport_id: p.passportId ?? null,
    phone: p.phone,
    address_street: p.street,
    address_city: p.city,
    address_zip_code: p.zip,
    address_province_iso_code: p.province ?? null,
    address_country_iso_code: entity.isoCountry,
  });
}
