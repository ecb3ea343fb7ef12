import { legalEntities, LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { createCustomerRepository } from '../customers/index.js';

/** The demo customer who is not yet a member (docs/product/demo-data.md#demo-customers: lands on onboarding). */
const NOT_YET_MEMBER = 'NL';

/**
 * Demo consents of docs/product/demo-data.md#demo-customers: every demo customer except NL has joined the loyalty
 * programme. Runs at every start: an existing answer (a demo user may have left) is never overwritten.
 */
export async function seedDemoConsents(db: Db): Promise<void> {
  const customers = createCustomerRepository(db);
  for (const entity of legalEntities) {
    if (entity.isoCountry === NOT_YET_MEMBER) continue;
    const customer = await customers.findByEmail(`demo.${entity.isoCountry.toLowerCase()}@example.com`);
    if (!customer) continue;
    await db
      .insertInto('customer_consents')
      .values({
        customer_id: customer.id,
        slug: LOYALTY_CORE_CONSENT,
        legal_entity_id: customer.legal_entity_id,
        granted: true,
      })
      .onConflict((oc) => oc.columns(['customer_id', 'slug']).doNothing())
      .execute();
  }
}
