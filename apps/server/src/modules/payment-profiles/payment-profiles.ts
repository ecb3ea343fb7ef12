import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApiErrorBody,
  apiPaths,
  legalEntities,
  PaymentProfilesResponse,
  type PaymentProfile,
} from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import type { NewPaymentProfileRow, PaymentProfileRow } from '../../db/schema.js';
import { withStartupLock } from '../../db/startup-lock.js';
import { createCustomerRepository, type CustomerRepository, signedInCustomer } from '../customers/index.js';

/** A stored profile as the API shows it; only the last four digits of a card or IBAN are ever kept. */
function toPaymentProfile(row: PaymentProfileRow): PaymentProfile {
  if (row.type === 'SEPA') {
    return {
      id: row.id,
      type: 'SEPA',
      maskedIban: row.masked_iban ?? '',
      holder: row.holder,
      isDefault: row.is_default,
    };
  }
  return {
    id: row.id,
    type: 'CARD',
    brand: row.brand ?? 'OTHER',
    last4: row.last4 ?? '0000',
    expiryMonth: row.expiry_month ?? 1,
    expiryYear: row.expiry_year ?? 2000,
    holder: row.holder,
    isDefault: row.is_default,
  };
}

export async function paymentProfilesOf(db: Db, customerId: string): Promise<PaymentProfile[]> {
  const rows = await db
    .selectFrom('payment_profiles')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toPaymentProfile);
}

/** An IBAN shown as its country code and last four characters: DE** **** **** **** **12 34. */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  const masked = compact.slice(0, 2) + '*'.repeat(Math.max(0, compact.length - 6)) + compact.slice(-4);
  return masked.replace(/(.{4})/g, '$1 ').trim();
}

/** GET …/v2/responsive/paymentprofiles/all: read-only (the webview payment page changes them). */
export const paymentProfileRoutes: FastifyPluginAsync<{ customers: CustomerRepository }> = async (
  app,
  { customers },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    apiPaths.paymentProfiles,
    {
      schema: {
        tags: ['customer'],
        summary:
          "The customer's payment profiles: cards (brand, last four digits, expiry) and SEPA (masked IBAN)",
        security: [{ bearer: [] }],
        response: { 200: PaymentProfilesResponse, 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      reply.header('cache-control', 'no-store');
      return { body: { paymentProfiles: await paymentProfilesOf(app.db, customer.id) } };
    },
  );
};

const year = new Date().getUTCFullYear();

/** Demo payment profiles per country (docs/product/demo-data.md#demo-customers): one or two each, a default among them. */
const demoProfiles: Record<string, Omit<NewPaymentProfileRow, 'customer_id' | 'holder'>[]> = {
  NL: [{ type: 'SEPA', masked_iban: maskIban('NL91ABNA0417164300'), is_default: true }],
  AT: [
    { type: 'CARD', brand: 'VISA', last4: '4242', expiry_month: 8, expiry_year: year + 2, is_default: true },
    { type: 'SEPA', masked_iban: maskIban('AT611904300234573201'), is_default: false },
  ],
  FR: [
    {
      type: 'CARD',
      brand: 'MASTERCARD',
      last4: '5100',
      expiry_month: 3,
      expiry_year: year + 1,
      is_default: true,
    },
  ],
  DE: [
    {
      type: 'CARD',
      brand: 'MASTERCARD',
      last4: '4444',
      expiry_month: 12,
      expiry_year: year + 3,
      is_default: true,
    },
    { type: 'SEPA', masked_iban: maskIban('DE89370400440532013000'), is_default: false },
  ],
  IT: [
    { type: 'CARD', brand: 'VISA', last4: '1881', expiry_month: 6, expiry_year: year + 1, is_default: true },
    { type: 'CARD', brand: 'AMEX', last4: '0005', expiry_month: 1, expiry_year: year + 4, is_default: false },
  ],
  ES: [{ type: 'SEPA', masked_iban: maskIban('ES9121000418450200051332'), is_default: true }],
  HU: [
    { type: 'CARD', brand: 'VISA', last4: '0077', expiry_month: 9, expiry_year: year + 2, is_default: true },
  ],
  DK: [
    {
      type: 'CARD',
      brand: 'OTHER',
      last4: '3210',
      expiry_month: 11,
      expiry_year: year + 1,
      is_default: true,
    },
    { type: 'SEPA', masked_iban: maskIban('DK5000400440116243'), is_default: false },
  ],
};

/** Gives each demo customer without payment profiles their demo ones; profiles that exist stay. */
export async function seedDemoPaymentProfiles(db: Db): Promise<void> {
  await withStartupLock(db, 'demo payment profiles', async (connection) => {
    const customers = createCustomerRepository(connection);
    for (const entity of legalEntities) {
      const customer = await customers.findByEmail(`demo.${entity.isoCountry.toLowerCase()}@example.com`);
      if (!customer) continue;
      const has = await connection
        .selectFrom('payment_profiles')
        .select('id')
        .where('customer_id', '=', customer.id)
        .executeTakeFirst();
      if (has) continue;
      const holder = `${customer.first_name} ${customer.last_name}`;
      const rows = demoProfiles[entity.isoCountry] ?? [];
      for (const [i, profile] of rows.entries()) {
        await connection
          .insertInto('payment_profiles')
          .values({
            ...profile,
            customer_id: customer.id,
            holder,
            created_at: new Date(Date.UTC(2026, 0, 1 + i)),
          })
          .execute();
      }
    }
  });
}
