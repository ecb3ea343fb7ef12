import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export interface TestDatabase {
  db: Db;
  /** postgres://… of the fresh database, or undefined for in-memory PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

export const testDbTarget = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB_TARGET === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, empty database owned by one test: in-memory PGlite, or (TEST_DB_TARGET=postgres) a new
 * database on the server of TEST_DATABASE_URL, dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDbTarget() === 'pglite') {
    const db = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    return { db, url: undefined, drop: () => db.destroy() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB_TARGET=postgres needs TEST_DATABASE_URL');
  const name = `roadpass_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 5 });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A fresh database with the schema migrated and nothing else in it. */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  await migrateToLatest(database.db);
  return database;
}
