import { sql, type Kysely } from 'kysely';

/**
 * Issue 19 §4, points expiry reminders (decision 0035):
 * - `loyalty_expiry_reminders`: one row per expiring lot (a positive ledger entry) and reminder kind
 *   (`days-30`, `days-7`, …), primary key (event_id, kind). The reminder job inserts the rows in the
 *   same transaction as the outbox row of their e-mail, before it is handed to the mail server: a lot
 *   is reminded once per kind, whatever the number of instances, runs and restarts.
 * - `points_reminder_settings`: the customer's "Points reminders" choice. No row means on (a
 *   service message, docs/product/account.md#points-reminders).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('loyalty_expiry_reminders')
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('loyalty_events.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('customer_id', 'uuid', (c) =>
      c.notNull().references('loyalty_accounts.customer_id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('outbox_id', 'uuid', (c) => c.references('outbox.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('loyalty_expiry_reminders_pk', ['event_id', 'kind'])
    .execute();
  await db.schema
    .createIndex('loyalty_expiry_reminders_customer')
    .on('loyalty_expiry_reminders')
    .column('customer_id')
    .execute();

  await db.schema
    .createTable('points_reminder_settings')
    .addColumn('customer_id', 'uuid', (c) => c.primaryKey().references('customers.id').onDelete('cascade'))
    .addColumn('points_reminders', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('points_reminder_settings').ifExists().execute();
  await db.schema.dropTable('loyalty_expiry_reminders').ifExists().execute();
}
