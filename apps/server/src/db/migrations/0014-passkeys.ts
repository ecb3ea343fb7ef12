import { sql, type Kysely } from 'kysely';

/**
 * Passkeys (docs/product/security.md#passkeys, decision 0034): one row per WebAuthn credential, one
 * customer's only (rows go with the customer), the credential id unique across all customers. The
 * challenges of registrations and passkey sign-ins live in their own table so that any instance can
 * check them: single-use (deleted when used) and short-lived (expires_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'bytea', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('aaguid', 'varchar(36)', (c) => c.notNull())
    .addColumn('device_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('backed_up', 'boolean', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('passkeys_customer')
    .on('passkeys')
    .columns(['customer_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    // A registration belongs to a customer, a passkey sign-in to one sign-in page (interaction).
    .addColumn('customer_id', 'uuid', (c) => c.references('customers.id').onDelete('cascade'))
    .addColumn('interaction_uid', 'varchar(128)')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expiry')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
