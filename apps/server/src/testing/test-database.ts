import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { TemplateDatabase } from './template-database.js';

export interface TestDatabase {
  db: Db;
  /** postgres://… of the fresh database, or undefined for in-memory PGlite. */
  url: string | undefined;
  drop(): Promise<void>;
}

export const testDbTarget = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB_TARGET === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh database owned by one test: in-memory PGlite, or (TEST_DB_TARGET=postgres) a new database
 * on the server of TEST_DATABASE_URL, dropped afterwards. Empty, or a copy of the run's template
 * (`copyOf`, template-database.ts) of the same target.
 */
export async function createTestDatabase({
  copyOf,
}: { copyOf?: TemplateDatabase } = {}): Promise<TestDatabase> {
  if (copyOf && copyOf.target !== testDbTarget())
    throw new Error(`a ${copyOf.target} template on ${testDbTarget()}`);
  if (testDbTarget() === 'pglite') {
    const db = await openDatabase({
      databaseUrl: undefined,
      dataDir: 'memory://',
      loadDataDir: await (copyOf ? templateDump(copyOf.location) : emptyClusterDump()),
    });
    return { db, url: undefined, drop: () => db.destroy() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB_TARGET=postgres needs TEST_DATABASE_URL');
  const name = `roadpass_test_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}${copyOf ? ` template ${copyOf.location}` : ''}`);
  const url = databaseOnServer(serverUrl, name);
  // Prepared statements, as a server on a direct connection runs (DATABASE_PREPARED_STATEMENTS=auto).
  const db = await openDatabase({
    databaseUrl: url,
    dataDir: '',
    poolSize: 5,
    preparedStatements: true,
  });
  return {
    db,
    url,
    async drop() {
      await db.destroy();
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** One statement on the PostgreSQL server of `serverUrl`, on a connection of its own: its rows. */
export async function onServer<Row extends object>(
  serverUrl: string,
  statement: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<Row>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** postgres://… of database `name` on the server of `serverUrl`. */
export function databaseOnServer(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database with the schema migrated and nothing else in it. */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  await migrateToLatest(database.db);
  return database;
}

/**
 * A dump of a new, empty PGlite cluster, made once per machine and PGlite version and kept in the
 * temporary folder: a new in-memory PGlite runs initdb, which takes seconds on two cores, while
 * loading this dump takes a fraction of that (the suites open hundreds of databases).
 */
let clusterDump: Promise<Blob> | undefined;
export function emptyClusterDump(): Promise<Blob> {
  clusterDump ??= (async () => {
    // Resolved as require would (the package's CommonJS entry, in the same dist folder): Vitest's global
    // setup, which makes the run's template database on it, has no import.meta.resolve.
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const manifest = path.join(
      entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)),
      'package.json',
    );
    const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
    const file = path.join(tmpdir(), `roadpass-test-pglite-${version}.tar`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const pglite = await PGlite.create('memory://');
      const dump = await pglite.dumpDataDir('none');
      await pglite.close();
      // Written under a unique name, then renamed: a process reading it never sees half a file.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    }
  })();
  return clusterDump;
}

/** A template's PGlite dump (template-database.ts), read once per process. */
const templateDumps = new Map<string, Promise<Blob>>();
function templateDump(file: string): Promise<Blob> {
  let dump = templateDumps.get(file);
  if (!dump) {
    dump = readFile(file).then((bytes) => new Blob([bytes]));
    templateDumps.set(file, dump);
  }
  return dump;
}
