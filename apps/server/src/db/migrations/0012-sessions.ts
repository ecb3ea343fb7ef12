import { sql, type Kysely } from 'kysely';

/**
 * Sessions that end at once (docs/product/security.md#sessions):
 * - the identity provider's storage gets the account each row belongs to, indexed, so a customer's
 *   sessions, grants and tokens are found without reading every row (filled for existing rows);
 * - `ended_sessions`: each ended session id (the access tokens' `sid`), kept as long as an access
 *   token of it may still be presented. Every insert notifies `roadpass_sessions_ended` with the
 *   sid, so every instance refuses that session's access tokens at once (decision 0031). No foreign
 *   key: an account's ended sessions must outlive the account's deletion;
 * - `session_devices`: what the customer sees of each session (device, network address, when signed
 *   in and last active); rows go with the customer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_model_instances').addColumn('account_id', 'varchar(255)').execute();
  await sql`update oidc_model_instances set account_id = payload->>'accountId' where payload ? 'accountId'`.execute(
    db,
  );
  await db.schema
    .createIndex('oidc_model_instances_account_id')
    .on('oidc_model_instances')
    .columns(['account_id', 'kind'])
    .execute();

  await db.schema
    .createTable('ended_sessions')
    .addColumn('sid', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('customer_id', 'uuid', (c) => c.notNull())
    .addColumn('reason', 'varchar(40)', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ended_sessions_expires_at')
    .on('ended_sessions')
    .column('expires_at')
    .execute();
  await sql`
    create or replace function roadpass_notify_session_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('roadpass_sessions_ended', k.sid) from (select sid from changed) k;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger ended_sessions_notify_insert after insert on ended_sessions
    referencing new table as changed for each statement execute function roadpass_notify_session_ended()`.execute(
    db,
  );

  await db.schema
    .createTable('session_devices')
    .addColumn('sid', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('customer_id', 'uuid', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('signed_in_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_active_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('session_devices_customer')
    .on('session_devices')
    .column('customer_id')
    .execute();
  await db.schema
    .createIndex('session_devices_expires_at')
    .on('session_devices')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('session_devices').execute();
  await db.schema.dropTable('ended_sessions').execute();
  await sql`drop function if exists roadpass_notify_session_ended()`.execute(db);
  await db.schema.dropIndex('oidc_model_instances_account_id').execute();
  await db.schema.alterTable('oidc_model_instances').dropColumn('account_id').execute();
}
