import type { Kysely } from 'kysely';

/**
 * Issue 20 §3, DPoP (decision 0044): the ids of the DPoP proofs the API has accepted, one row per
 * proof (a hash of the key thumbprint and the proof's `jti`), kept until the proof could no longer be
 * accepted anyway. The primary key makes the second use of a proof fail on every instance sharing the
 * database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dpop_proofs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dpop_proofs_expires_at').on('dpop_proofs').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dpop_proofs').execute();
}
