import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { Kysely, PGliteDialect } from 'kysely';
import type { AppConfig } from '../config.js';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { seedDemoData, seedReferenceData } from '../db/seed.js';
import { loadLoyaltyContent } from '../modules/content/index.js';
import { createMessageSender, loadMessageTexts } from '../modules/messages/index.js';
import { createNewsletterService } from '../modules/newsletter/index.js';
import { databaseOnServer, emptyClusterDump, onServer } from './test-database.js';

/**
 * The run's template database (decision 0003, update of 30 Nov, evening): what a test app's start
 * writes before anything else, made once per run by the suite's global setup (global-setup.ts) and
 * copied for each test app instead of being migrated and seeded again. A test app's start on the
 * copy still runs its migrations and its demo data, and finds both done, as a restarted server does.
 * - PostgreSQL: a database of its own, copied by CREATE DATABASE … TEMPLATE.
 * - PGlite: a dump of an in-memory cluster in the temporary folder, loaded by each new one.
 */
export interface TemplateDatabase {
  target: 'pglite' | 'postgres';
  /** The database's name (PostgreSQL) or the dump's file (PGlite). */
  location: string;
  /** The settings the demo data depends on (seedKey), as the template was seeded with them. */
  seedKey: string;
}

/**
 * The settings that change what the demo data writes: its switch, the content it is built from, and
 * the newsletter e-mails it sends (their sender, their links, and SMTP, which a template never has).
 * A test app whose configuration differs here starts on an empty database instead.
 */
export function seedKey(config: AppConfig): string {
  const { seedDemoData: seeded, contentDir, publicUrl, mailFrom, smtpUrl } = config;
  return JSON.stringify({ seeded, contentDir, publicUrl, mailFrom, smtpUrl: smtpUrl ?? null });
}

/**
 * The schema and demo data a start writes (plugins/database.ts, then app.ts's seedDemoData), with the
 * services the demo data needs built as app.ts builds them, without SMTP. template-database.test.ts
 * compares a copy with a database a start filled itself.
 */
async function fill(db: Db, config: AppConfig): Promise<void> {
  await migrateToLatest(db);
  await seedReferenceData(db);
  const sender = createMessageSender({ db, log: Fastify({ logger: false }).log, from: config.mailFrom });
  const newsletter = createNewsletterService({
    db,
    sender,
    texts: await loadMessageTexts(config.contentDir),
    publicUrl: config.publicUrl,
  });
  await seedDemoData(db, { loyaltyContent: await loadLoyaltyContent(config.contentDir), newsletter });
}

/** Makes the template on `target` for a test app of `config`; answers it and the function that removes it. */
export async function makeTemplateDatabase(
  target: 'pglite' | 'postgres',
  config: AppConfig,
): Promise<{ template: TemplateDatabase; remove(): Promise<void> }> {
  const key = seedKey(config);
  if (target === 'pglite') {
    await removeStaleDumps();
    // In this process, not in a worker thread (db/pglite-client.ts): the dump is PGlite's own call.
    const pglite = await PGlite.create('memory://', { loadDataDir: await emptyClusterDump() });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    try {
      await fill(db, config);
      const dump = await pglite.dumpDataDir('none');
      const file = path.join(tmpdir(), `${TEMPLATE_FILE_PREFIX}${stamp()}.tar`);
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      return {
        template: { target, location: file, seedKey: key },
        remove: () => rm(file, { force: true }),
      };
    } finally {
      await db.destroy();
    }
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('a PostgreSQL template needs TEST_DATABASE_URL');
  await dropStaleTemplates(serverUrl);
  const name = `${TEMPLATE_DATABASE_PREFIX}${stamp()}`;
  await onServer(serverUrl, `create database ${name}`);
  const db = await openDatabase({ databaseUrl: databaseOnServer(serverUrl, name), dataDir: '', poolSize: 2 });
  try {
    await fill(db, config);
  } finally {
    await db.destroy();
  }
  return {
    template: { target, location: name, seedKey: key },
    remove: async () => {
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * Templates are named with the moment they were made (seconds since 1970) and a random part, so that
 * one left behind by a run that was stopped before its teardown (Ctrl-C, a kill) is removed by a later
 * run once it is older than any run lasts.
 */
const TEMPLATE_DATABASE_PREFIX = 'roadpass_template_';
const TEMPLATE_FILE_PREFIX = 'roadpass-test-template-';
const STALE_AFTER_SECONDS = 6 * 3600;
const stamp = () => `${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
const staleStamp = (name: string, prefix: string) => {
  const made = Number(/^(\d+)_/.exec(name.slice(prefix.length))?.[1]);
  return Number.isFinite(made) && made < Date.now() / 1000 - STALE_AFTER_SECONDS;
};

async function dropStaleTemplates(serverUrl: string): Promise<void> {
  const databases = await onServer<{ datname: string }>(
    serverUrl,
    `select datname from pg_database where datname like $1`,
    [`${TEMPLATE_DATABASE_PREFIX}%`],
  );
  for (const { datname } of databases)
    if (staleStamp(datname, TEMPLATE_DATABASE_PREFIX))
      await onServer(serverUrl, `drop database if exists ${datname} with (force)`);
}

async function removeStaleDumps(): Promise<void> {
  for (const file of await readdir(tmpdir()))
    if (file.startsWith(TEMPLATE_FILE_PREFIX) && staleStamp(file, TEMPLATE_FILE_PREFIX))
      await rm(path.join(tmpdir(), file), { force: true });
}
