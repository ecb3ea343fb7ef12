import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** Where a Db's data lives, for what needs a connection of its own (the change listener). */
export type DatabaseSource = { kind: 'postgres'; url: string } | { kind: 'pglite'; pglite: PGlite };

const sources = new WeakMap<Db, DatabaseSource>();

/** The source of a Db opened by openDatabase; undefined for one built elsewhere. */
export function databaseSource(db: Db): DatabaseSource | undefined {
  return sources.get(db);
}

export interface DatabaseOptions {
  /** postgres://… for a PostgreSQL server; undefined for embedded PGlite. */
  databaseUrl: string | undefined;
  /** Folder of the embedded database; 'memory://' for a throw-away one. */
  dataDir: string;
  /** Connection pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Embedded only: a data folder dump to start from instead of creating a new cluster (tests). */
  loadDataDir?: Blob;
}

/** Opens the database: a PostgreSQL server when a URL is given, else embedded PGlite. */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    sources.set(db, { kind: 'postgres', url: options.databaseUrl });
    return db;
  }
  if (!options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  const pglite = await PGlite.create(
    options.loadDataDir
      ? { dataDir: options.dataDir, loadDataDir: options.loadDataDir }
      : { dataDir: options.dataDir },
  );
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  sources.set(db, { kind: 'pglite', pglite });
  return db;
}
