import type { Kysely } from 'kysely';

/** The loyalty ledger, accounts and partner codes. (Filled in by the loyalty module work.) */
export async function up(_db: Kysely<unknown>): Promise<void> {}

export async function down(_db: Kysely<unknown>): Promise<void> {}
