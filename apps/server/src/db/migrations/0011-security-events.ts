import { sql, type Kysely } from 'kysely';

/**
 * The customer's security activity (docs/product/security.md#security-activity): append-only, one
 * row per event, deleted after the retention period. Rows go with the customer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('security_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .createIndex('security_events_customer_time')
    .on('security_events')
    .columns(['customer_id', 'occurred_at'])
    .execute();
  await db.schema.createIndex('security_events_time').on('security_events').column('occurred_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('security_events').execute();
}
