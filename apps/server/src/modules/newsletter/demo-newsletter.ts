import { legalEntities } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { withStartupLock } from '../../db/startup-lock.js';
import { createCustomerRepository, type Customer } from '../customers/index.js';
import type { NewsletterService } from './newsletter-service.js';

/** Demo customers who never subscribed (the others did at registration). */
const NOT_SUBSCRIBED = new Set(['NL', 'DK']);

/**
 * Demo newsletter state (outside production): every demo customer but NL and DK subscribed at
 * registration, and each subscriber got one newsletter e-mail, so /dev/outbox holds a working
 * unsubscribe link. Only customers without an agreement yet are touched: a demo user's own choice stays.
 */
export async function seedDemoNewsletter(db: Db, newsletter: NewsletterService): Promise<void> {
  // The e-mails go out after the lock is released: the sender uses its own connection, which PGlite
  // (one connection) could not give while the lock holds it.
  const subscribers: Customer[] = [];
  await withStartupLock(db, 'demo newsletter', async (connection) => {
    const customers = createCustomerRepository(connection);
    for (const entity of legalEntities) {
      const customer = await customers.findByEmail(`demo.${entity.isoCountry.toLowerCase()}@example.com`);
      if (!customer) continue;
      const exists = await connection
        .selectFrom('newsletter_agreements')
        .select('id')
        .where('customer_id', '=', customer.id)
        .executeTakeFirst();
      if (exists) continue;
      const subscribed = !NOT_SUBSCRIBED.has(entity.isoCountry);
      await connection
        .insertInto('newsletter_agreements')
        .values({ customer_id: customer.id, agreement: subscribed })
        .execute();
      if (!subscribed) continue;
      await connection
        .insertInto('newsletter_events')
        .values({
          customer_id: customer.id,
          action: 'SUBSCRIBE',
          channel: 'REGISTRATION',
          occurred_at: customer.created_at,
        })
        .execute();
      subscribers.push(customer);
    }
  });
  for (const customer of subscribers) await newsletter.sendNewsletter(customer);
}
