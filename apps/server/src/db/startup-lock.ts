import { sql } from 'kysely';
import pg from 'pg';
import { databaseSource, type Db } from './database.js';

/**
 * Runs a start-up step that writes (demo data, say) while holding a PostgreSQL session advisory lock
 * named after the step, so that instances starting at the same moment on one database take turns:
 * the second finds the first one's rows and leaves them. The lock lives on one connection and ends
 * with it, so a process killed in the middle never leaves it behind. PGlite is PostgreSQL too.
 *
 * When the pool goes through a transaction-pooling PgBouncer (DATABASE_DIRECT_URL set), a session
 * lock taken through it could stay on a server connection that another client gets next: the lock
 * is then held on a connection of its own straight to PostgreSQL, and the step runs on the pool.
 */
export async function withStartupLock<T>(db: Db, step: string, run: (db: Db) => Promise<T>): Promise<T> {
  const key = `roadpass:start:${step}`;
  const source = databaseSource(db);
  if (source?.kind === 'postgres' && source.directUrl !== source.url) {
    const client = new pg.Client({
      connectionString: source.directUrl,
      application_name: 'roadpass-start-up',
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [key]);
      return await run(db);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(connection);
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
