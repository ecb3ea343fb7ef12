import { sql, type Kysely } from 'kysely';

/**
 * Data rights (docs/product/data-rights.md, decisions 0042 and 0043): the export jobs and their ZIP
 * (in chunks, so every instance can stream it out), scheduled deletions, the rental system's
 * blockers, the erasure feed it reads, and what is kept of an erased customer without a way back:
 * the loyalty ledger under a random pseudonym and consent answers as counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo('queued'))
    .addColumn('progress_percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // A running job whose instance stopped is taken again once this has passed.
    .addColumn('locked_until', 'timestamptz')
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('size_bytes', 'bigint')
    .execute();
  await db.schema
    .createIndex('data_exports_customer_time')
    .on('data_exports')
    .columns(['customer_id', 'requested_at'])
    .execute();
  await db.schema
    .createIndex('data_exports_state')
    .on('data_exports')
    .columns(['state', 'requested_at'])
    .execute();
  await db.schema
    .createTable('data_export_chunks')
    .addColumn('export_id', 'uuid', (c) => c.notNull().references('data_exports.id').onDelete('cascade'))
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('data_export_chunks_pk', ['export_id', 'n'])
    .execute();

  await db.schema
    .createTable('account_deletions')
    .addColumn('customer_id', 'uuid', (c) => c.primaryKey().references('customers.id').onDelete('cascade'))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('scheduled_for', 'timestamptz', (c) => c.notNull())
    .addColumn('last_email_sent_at', 'timestamptz')
    // Claimed by an instance until then (a stopped instance's claim runs out).
    .addColumn('locked_until', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('account_deletions_due')
    .on('account_deletions')
    .column('scheduled_for')
    .execute();
  await db.schema
    .createTable('deletion_blockers')
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('reference', 'varchar(80)', (c) => c.notNull())
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('deletion_blockers_pk', ['customer_id', 'legal_entity_id', 'kind', 'reference'])
    .execute();

  // No foreign key: the customer is gone; the rental system reads this feed by cursor.
  await db.schema
    .createTable('erasures')
    .addColumn('cursor', 'bigserial', (c) => c.primaryKey())
    .addColumn('customer_id', 'uuid', (c) => c.notNull().unique())
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull())
    .addColumn('erased_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('loyalty_ledger_archive')
    .addColumn('pseudonym_id', 'uuid', (c) => c.notNull())
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(30)', (c) => c.notNull())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('tier_after', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('loyalty_ledger_archive_pk', ['pseudonym_id', 'seq'])
    .execute();
  await db.schema
    .createTable('erased_consent_counts')
    .addColumn('slug', 'varchar(100)', (c) => c.notNull())
    .addColumn('legal_entity_id', 'integer', (c) => c.notNull())
    .addColumn('granted', 'boolean', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('erased_consent_counts_pk', ['slug', 'legal_entity_id', 'granted'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'erased_consent_counts',
    'loyalty_ledger_archive',
    'erasures',
    'deletion_blockers',
    'account_deletions',
    'data_export_chunks',
    'data_exports',
  ])
    await db.schema.dropTable(table).execute();
}
