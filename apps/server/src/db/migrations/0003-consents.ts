import { sql, type Kysely } from 'kysely';

/** The customers' consent records: one row per customer and consent slug (no row = not granted). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customer_consents')
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(64)', (c) => c.notNull())
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull().references('legal_entities.legal_entity_id'))
    .addColumn('granted', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('customer_consents_pk', ['customer_id', 'slug'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('customer_consents').execute();
}
