import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

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
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (!options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  const pglite = await PGlite.create(
    options.loadDataDir
      ? { dataDir: options.dataDir, loadDataDir: options.loadDataDir }
      : { dataDir: options.dataDir },
  );
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}
