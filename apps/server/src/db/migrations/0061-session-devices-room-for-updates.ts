import { sql, type Kysely } from 'kysely';

/**
 * Decision 0061: `session_devices` pages keep a fifth free (fillfactor 80), so that the last-active
 * write of a session's first call (sessions module, `lastActiveRecorder`) is a heap-only update on
 * the row's own page instead of a new row version in each of the table's three indexes. Applies to
 * pages written from now on; an old instance runs unchanged beside it (expand-only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table session_devices set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table session_devices reset (fillfactor)`.execute(db);
}
