import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';

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
