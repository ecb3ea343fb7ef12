import { sql, type Kysely } from 'kysely';

/**
 * Account recovery (docs/product/security.md#forgot-password, #new-device-notice): single-use links
 * without login (stored as SHA-256, decision 0028) for a password reset, a "This wasn't me" answer
 * and the sign-in that follows a reset; and the first sign-in of each customer, so the first one
 * ever sends no new-device notice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recovery_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('recovery_tokens_customer')
    .on('recovery_tokens')
    .columns(['customer_id', 'purpose', 'created_at'])
    .execute();
  await db.schema
    .createTable('customer_sign_ins')
    .addColumn('customer_id', 'uuid', (c) => c.primaryKey().references('customers.id').onDelete('cascade'))
    .addColumn('first_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('customer_sign_ins').execute();
  await db.schema.dropTable('recovery_tokens').execute();
}
