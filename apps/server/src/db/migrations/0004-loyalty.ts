import { sql, type Kysely } from 'kysely';

/**
 * The loyalty ledger (docs/product/loyalty.md#loyalty-rules): one account row per member, their points events and
 * their partner codes.
 *
 * - Events are only ever appended (expiry too), each with a per-customer dense sequence number, so a
 *   history page is an index range on (customer_id, seq) computed from the account's event_count:
 *   page 0 and page 99 cost the same, whatever the number of entries.
 * - (customer_id, source_id) is unique: one source event never counts twice.
 * - A positive event is a "lot": remaining_points is what is left of it after negative adjustments
 *   (oldest first) until it expires at expires_at. Partial indexes cover only lots with points left,
 *   so finding what is due for expiry stays cheap as the ledger grows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('loyalty_accounts')
    .addColumn('customer_id', 'uuid', (c) => c.primaryKey().references('customers.id').onDelete('cascade'))
    .addColumn('balance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tier', 'varchar(32)', (c) => c.notNull().defaultTo('sky-blue'))
    .addColumn('tier_expiration_date', 'timestamptz')
    .addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('loyalty_accounts_balance', sql`balance >= 0`)
    .addCheckConstraint('loyalty_accounts_event_count', sql`event_count >= 0`)
    .execute();
  await db.schema
    .createIndex('loyalty_accounts_tier_due')
    .on('loyalty_accounts')
    .column('tier_expiration_date')
    .where(sql.ref('tier_expiration_date'), 'is not', null)
    .execute();

  await db.schema
    .createTable('loyalty_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('customer_id', 'uuid', (c) =>
      c.notNull().references('loyalty_accounts.customer_id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('source_id', 'varchar(160)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    // When the points of a positive event expire; null for events that add no points.
    .addColumn('expires_at', 'timestamptz')
    .addColumn('remaining_points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('description', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('tier_after', 'varchar(32)', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('loyalty_events_customer_seq', ['customer_id', 'seq'])
    .addUniqueConstraint('loyalty_events_customer_source', ['customer_id', 'source_id'])
    .addCheckConstraint(
      'loyalty_events_type',
      sql`type in ('rental-completed', 'bonus', 'adjustment', 'expiry')`,
    )
    .addCheckConstraint('loyalty_events_seq', sql`seq > 0`)
    .addCheckConstraint(
      'loyalty_events_remaining',
      sql`remaining_points >= 0 and remaining_points <= greatest(points, 0)`,
    )
    .execute();
  // Points collected in the last 12 months (tier): a range on occurred_at per customer.
  await db.schema
    .createIndex('loyalty_events_customer_occurred')
    .on('loyalty_events')
    .columns(['customer_id', 'occurred_at'])
    .execute();
  // Lots with points left: per customer (FIFO, due check) and for everyone (expiry runs).
  await db.schema
    .createIndex('loyalty_events_open_lots')
    .on('loyalty_events')
    .columns(['customer_id', 'expires_at'])
    .where(sql.ref('remaining_points'), '>', 0)
    .execute();
  await db.schema
    .createIndex('loyalty_events_due_lots')
    .on('loyalty_events')
    .column('expires_at')
    .where(sql.ref('remaining_points'), '>', 0)
    .execute();

  await db.schema
    .createTable('loyalty_partner_codes')
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('slug', 'varchar(64)', (c) => c.notNull())
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('loyalty_partner_codes_pk', ['customer_id', 'slug'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('loyalty_partner_codes').execute();
  await db.schema.dropTable('loyalty_events').execute();
  await db.schema.dropTable('loyalty_accounts').execute();
}
