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
  /**
   * PostgreSQL: name the app's statements, so that each connection parses and plans each once
   * (see PreparingClient). Off through a transaction-pooling PgBouncer that cannot carry them.
   */
  preparedStatements?: boolean;
  /** Embedded only: a data folder dump to start from instead of creating a new cluster (tests). */
  loadDataDir?: Blob;
}

/** Statements named at most, per process (each connection prepares those it runs). */
const MAX_PREPARED_STATEMENTS = 300;
/** Texts remembered at most, named or not (past this, new texts go unnamed). */
const MAX_REMEMBERED_TEXTS = 5_000;
/** SQL text → its statement's name, or null: sent unnamed (planned each time, as pg does by default). */
const statementNames = new Map<string, string | null>();
let preparedCount = 0;
/** Reads and writes only: the migrations' DDL runs once and would use up the names. */
const DML = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * A `*` that stands for every column (`select *`, `select t.*`, `, *`, `returning *`): after
 * `select`, `distinct`, `all`, `returning`, a comma or a dot. A multiplication's `*` follows an
 * operand (`(r.index + 1) * r.size`, `extract(…) * 1000`) and `count(*)` is a number whatever the
 * columns: neither counts. The history page's and the forecast's reads multiply, and went unprepared
 * while any `*` counted (planned at every call, about 0.7 ms of PostgreSQL's time each; 29 Nov 2026).
 */
const EVERY_COLUMN = /(?:\b(?:select|distinct|all|returning)|[,.])\s*\*/i;

/**
 * The name of a statement, if it gets one: reads and writes only. Statements that select every column
 * (EVERY_COLUMN) never do: a migration that adds a column would change the result of a prepared one,
 * which PostgreSQL refuses ("cached plan must not change result type") for as long as the connection
 * lives — while old and new instances run side by side during an upgrade (docs/operations.md).
 */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_REMEMBERED_TEXTS) return undefined;
    name =
      DML.test(text) && !EVERY_COLUMN.test(text) && preparedCount < MAX_PREPARED_STATEMENTS
        ? `roadpass_${preparedCount++}`
        : null;
    statementNames.set(text, name);
  }
  return name ?? undefined;
}

/**
 * A pg client that sends the app's statements (Kysely's `query(text, values)`) as named prepared
 * statements: PostgreSQL parses and plans each once per connection (after five runs it keeps a
 * generic plan when that is no worse) instead of for every call. Planning was most of the database's
 * time for a customer's first call: 0.15 ms of the tier details' 0.2 ms, 0.08 of the login status's
 * 0.1 (issue 21 §5; decision 0051). Anything else (pg's own calls, LISTEN) goes through unchanged.
 */
class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
      const name = statementName(text);
      if (name) {
        const result = (super.query as (config: pg.QueryConfig) => Promise<pg.QueryResult>)({
          name,
          text,
          values,
        });
        // Should a prepared statement go stale anyway (a column's type changed under it), the text is
        // sent unnamed from then on; this call fails as it would have.
        result.catch((error: { code?: string }) => {
          if (error.code === '0A000') statementNames.set(text, null);
        });
        return result as never;
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/**
 * Opens the database: a PostgreSQL server when a URL is given, else embedded PGlite in a worker thread
 * of its own (docs/decisions/0012-pglite-worker.md); db.destroy() closes it and ends the thread.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.preparedStatements ? { Client: PreparingClient } : {}),
    });
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
