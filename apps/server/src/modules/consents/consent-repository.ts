import { sql } from 'kysely';
import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';

/** A customer's saved answer to one consent. */
export interface ConsentRecord {
  slug: string;
  legalEntityId: number;
  granted: boolean;
  updatedAt: Date;
}

/** A customer is a member of the loyalty programme exactly while the core consent is granted. */
export async function isLoyaltyMember(db: Db, customerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('customer_consents')
    .select('granted')
    .where('customer_id', '=', customerId)
    .where('slug', '=', LOYALTY_CORE_CONSENT)
    .executeTakeFirst();
  return row?.granted === true;
}

/** Every consent record of a customer (consents without a record count as not granted). */
export async function consentRecords(db: Db, customerId: string): Promise<ConsentRecord[]> {
  const rows = await db
    .selectFrom('customer_consents')
    .select(['slug', 'legal_entity_id', 'granted', 'updated_at'])
    .where('customer_id', '=', customerId)
    .execute();
  return rows.map((row) => ({
    slug: row.slug,
    legalEntityId: row.legal_entity_id,
    granted: row.granted,
    updatedAt: new Date(row.updated_at),
  }));
}

/** Grants or revokes one consent: one statement, so concurrent calls for the same consent cannot collide. */
export async function saveConsent(
  db: Db,
  change: { customerId: string; slug: string; legalEntityId: number; granted: boolean },
): Promise<ConsentRecord> {
  const row = await db
    .insertInto('customer_consents')
    .values({
      customer_id: change.customerId,
      slug: change.slug,
      legal_entity_id: change.legalEntityId,
      granted: change.granted,
      updated_at: sql<Date>`now()`,
    })
    .onConflict((oc) =>
      oc.columns(['customer_id', 'slug']).doUpdateSet({
        legal_entity_id: change.legalEntityId,
        granted: change.granted,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(['slug', 'legal_entity_id', 'granted', 'updated_at'])
    .executeTakeFirstOrThrow();
  return {
    slug: row.slug,
    legalEntityId: row.legal_entity_id,
    granted: row.granted,
    updatedAt: new Date(row.updated_at),
  };
}
