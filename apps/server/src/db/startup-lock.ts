import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * Runs a start-up step that writes (demo data, say) while holding a PostgreSQL session advisory lock
 * named after the step, so that instances starting at the same moment on one database take turns:
 * the second finds the first one's rows and leaves them. The lock lives on one connection and ends
 * with it, so a process killed in the middle never leaves it behind. PGlite is PostgreSQL too.
 */
export async function withStartupLock<T>(db: Db, step: string, run: (db: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    const key = `roadpass:start:${step}`;
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(connection);
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
