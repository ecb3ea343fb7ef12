import { sql, type Kysely } from 'kysely';

/**
 * Storage of the embedded OpenID Connect provider: one table for every oidc-provider model
 * (sessions, interactions, grants, codes, tokens), and the failed sign-in attempts used for
 * throttling. Both live in the database so any number of instances share them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_model_instances')
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(255)', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(255)')
    .addColumn('uid', 'varchar(255)')
    .addColumn('user_code', 'varchar(255)')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oidc_model_instances_pkey', ['kind', 'id'])
    .execute();
  await db.schema
    .createIndex('oidc_model_instances_uid')
    .on('oidc_model_instances')
    .columns(['kind', 'uid'])
    .execute();
  await db.schema
    .createIndex('oidc_model_instances_grant_id')
    .on('oidc_model_instances')
    .columns(['kind', 'grant_id'])
    .execute();
  await db.schema
    .createIndex('oidc_model_instances_user_code')
    .on('oidc_model_instances')
    .columns(['kind', 'user_code'])
    .execute();
  await db.schema
    .createIndex('oidc_model_instances_expires_at')
    .on('oidc_model_instances')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // 'email' or 'ip': what the subject is.
    .addColumn('scope', 'varchar(8)', (c) => c.notNull())
    // SHA-256 of the normalised e-mail or IP address: no typed text is kept.
    .addColumn('subject', 'char(64)', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('login_attempts_scope', sql`scope in ('email', 'ip')`)
    .execute();
  await db.schema
    .createIndex('login_attempts_subject')
    .on('login_attempts')
    .columns(['scope', 'subject', 'attempted_at'])
    .execute();
  await db.schema
    .createIndex('login_attempts_attempted_at')
    .on('login_attempts')
    .column('attempted_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_attempts').execute();
  await db.schema.dropTable('oidc_model_instances').execute();
}
