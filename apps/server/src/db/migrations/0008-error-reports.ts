import { sql, type Kysely } from 'kysely';

/**
 * What the error reporting tunnel received (Sentry envelopes: errors, user feedback), stored as sent
 * so a person can read them (/dev/error-reports) and, when an upstream receiver is configured, with
 * the outcome of forwarding them there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('error_reports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('event_id', 'varchar(64)')
    .addColumn('item_types', 'varchar(200)', (c) => c.notNull())
    .addColumn('envelope', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('forward_status', 'varchar(100)')
    .execute();
  await db.schema
    .createIndex('error_reports_received_at')
    .on('error_reports')
    .column('received_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('error_reports').execute();
}
