import { sql, type Expression } from 'kysely';
import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import { changeNotices } from '../../db/change-notices.js';
import type { Db } from '../../db/database.js';
import { isCustomerId } from '../../lib/customer-id.js';
import { batchPerTurn } from '../../lib/batch-per-turn.js';
import { batchArray } from '../../db/batch-array.js';

/** A customer's saved answer to one consent. */
export interface ConsentRecord {
  slug: string;
  legalEntityId: number;
  granted: boolean;
  updatedAt: Date;
}

/**
 * The loyalty membership rule, as SQL for the customer whose id `customerId` gives (a column of the
 * enclosing query): a customer is a member of the loyalty programme exactly while the core consent is
 * granted. Every query that asks about membership uses this one expression.
 */
export const isLoyaltyMemberSql = (customerId: Expression<string>) =>
  sql<boolean>`exists (select 1 from customer_consents cc where cc.customer_id = ${customerId}
    and cc.slug = ${LOYALTY_CORE_CONSENT} and cc.granted)`;

/**
 * Of these ids, the customers that exist, each with whether they are loyalty members. One statement
 * for any number of customers (an event batch asks for all of its customers at once).
 */
export async function loyaltyMemberships(
  db: Db,
  customerIds: readonly string[],
): Promise<Map<string, boolean>> {
  const ids = [...new Set(customerIds.filter(isCustomerId).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers as c')
    .select((eb) => ['c.id', isLoyaltyMemberSql(eb.ref('c.id')).as('member')])
    .where(sql<boolean>`c.id = any(${ids}::uuid[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row.member === true]));
}

/** Whether this customer is a loyalty member (see loyaltyMemberships). */
export async function isLoyaltyMember(db: Db, customerId: string): Promise<boolean> {
  return (await loyaltyMemberships(db, [customerId])).get(customerId.toLowerCase()) === true;
}

/**
 * Every consent record of a customer (consents without a record count as not granted), for the
 * consents calls: the records of every customer asked for in one turn of the event loop, in one
 * statement (decision 0053). Built on the database, not a transaction.
 */
export function consentRecordsReader(db: Db): (customerId: string) => Promise<ConsentRecord[]> {
  const read = batchPerTurn<string, ConsentRecord[]>(async (customerIds) => {
    const rows = await db
      .selectFrom('customer_consents')
      .select(['customer_id', 'slug', 'legal_entity_id', 'granted', 'updated_at'])
      .where(sql<boolean>`customer_id = any(${batchArray(customerIds, 'uuid')})`)
      .execute();
    const byCustomer = new Map(customerIds.map((id) => [id, [] as ConsentRecord[]]));
    for (const row of rows)
      byCustomer.get(row.customer_id)?.push({
        slug: row.slug,
        legalEntityId: row.legal_entity_id,
        granted: row.granted,
        updatedAt: new Date(row.updated_at),
      });
    // A customer asked for twice in one turn: each caller gets a list of its own.
    return customerIds.map((id) => [...byCustomer.get(id)!]);
  });
  return async (customerId) => (isCustomerId(customerId) ? read(customerId.toLowerCase()) : []);
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
  // Membership may have changed: this process's loyalty caches drop the customer at once.
  changeNotices(db).publish('loyalty', change.customerId);
  return {
    slug: row.slug,
    legalEntityId: row.legal_entity_id,
    granted: row.granted,
    updatedAt: new Date(row.updated_at),
  };
}
