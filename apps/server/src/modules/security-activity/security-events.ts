import type { SecurityEventKind } from '@roadpass/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Details of an event: device, network address, how a session ended. Never a secret. */
export type SecurityEventDetails = Record<string, string | number | boolean | null>;

/**
 * Appends one event to the customer's security activity (docs/product/security.md#security-activity).
 * Takes the database or a transaction, so an event is recorded in the same transaction as the change
 * it describes.
 */
export async function recordSecurityEvent(
  db: Kysely<Database>,
  customerId: string,
  kind: SecurityEventKind,
  details: SecurityEventDetails = {},
): Promise<void> {
  await db.insertInto('security_events').values({ customer_id: customerId, kind, details }).execute();
}
