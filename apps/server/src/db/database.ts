import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { PGliteWorkerClient, PGliteWorkerDialect } from './pglite-client.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** The embedded database's LISTEN, as PGlite's own: answers the function that stops listening. */
export interface EmbeddedDatabase {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** Where a Db's data lives, for what needs a connection of its own (the change listener). */
export type DatabaseSource =
  | {
      kind: 'postgres';
      url: string;
      /** A connection straight to the server (LISTEN, session locks): DATABASE_DIRECT_URL, else url. */
      directUrl: string;
      pool: pg.Pool;
    }
  | { kind: 'pglite'; pglite: EmbeddedDatabase };

const sources = new WeakMap<Db, DatabaseSource>();

/**
 * Told each query's time in seconds, whether it failed and its SQL (parameters apart), in the async
 * context of whoever ran it (the metrics and the traces; see observeQueries).
 */
export type QueryObserver = (seconds: number, failed: boolean, sql: string) => void;
const observers = new WeakMap<Db, Set<QueryObserver>>();

/** Calls `observer` after every query of `db` (opened by openDatabase); answers the function that stops it. */
export function observeQueries(db: Db, observer: QueryObserver): () => void {
  const set = observers.get(db);
  if (!set) return () => undefined;
  set.add(observer);
  return () => set.delete(observer);
}

/** Kysely's log hook feeding the observers: one Set lookup per query when nobody observes. */
function queryLog(set: Set<QueryObserver>) {
  return (event: LogEvent) => {
    if (set.size === 0) return;
    const seconds = event.queryDurationMillis / 1000;
    for (const observer of set) observer(seconds, event.level === 'error', event.query.sql);
  };
}

/** The source of a Db opened by openDatabase; undefined for one built elsewhere. */
export function databaseSource(db: Db): DatabaseSource | undefined {
  return sources.get(db);
}

export interface DatabaseOptions {
  /** postgres://… for a PostgreSQL server; undefined for embedded PGlite. */
  databaseUrl: string | undefined;
  /**
   * A connection straight to the same server when databaseUrl goes through a transaction-pooling
   * PgBouncer, which cannot carry LISTEN or session advisory locks (deploy/README.md).
   */
  databaseDirectUrl?: string | undefined;
  /** Folder of the embedded database; 'memory://' for a throw-away one. */
  dataDir: string;
  /** Connection pool size for a PostgreSQL server. */
  poolSize?: number;
  /** Embedded only: a data folder dump to start from instead of creating a new cluster (tests). */
  loadDataDir?: Blob;
}

/**
 * Opens the database: a PostgreSQL server when a URL is given, else embedded PGlite in a worker thread
 * of its own (docs/decisions/0012-pglite-worker.md); db.destroy() closes it and ends the thread.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => undefined);
    // Nor one that is checked out (a transaction between two queries) when the server goes away: the
    // query waiting on it fails, and the pool drops the client when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const set = new Set<QueryObserver>();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queryLog(set) });
    sources.set(db, {
      kind: 'postgres',
      url: options.databaseUrl,
      directUrl: options.databaseDirectUrl ?? options.databaseUrl,
      pool,
    });
    observers.set(db, set);
    return db;
  }
  if (!options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  const client = await PGliteWorkerClient.start(
    options.loadDataDir
      ? { dataDir: options.dataDir, loadDataDir: options.loadDataDir }
      : { dataDir: options.dataDir },
  );
  const set = new Set<QueryObserver>();
  const db = new Kysely<Database>({ dialect: new PGliteWorkerDialect(client), log: queryLog(set) });
  sources.set(db, { kind: 'pglite', pglite: client });
  observers.set(db, set);
  return db;
}
