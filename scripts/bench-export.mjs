#!/usr/bin/env node
// Benchmark: "Download my data" (docs/product/data-rights.md#download-my-data) for the 250-entry demo
// customer (demo.de@example.com) and a customer with 10 000 ledger entries: the time to build the ZIP
// (rows streamed from the database into yazl, stored as chunk rows), the time to stream it out, and
// the server's extra memory (peak RSS during the run minus RSS before it). Each measurement runs in a
// process of its own, against a fresh embedded database seeded by the server's own start-up.
// With BENCH_DATABASE_URL=postgres://…/any it runs against a fresh database created on that
// PostgreSQL server (and dropped afterwards) instead of embedded PGlite, whose WebAssembly heap grows
// inside the server process and so counts in its memory.
// Usage: npm run build && npm run bench:export   (BENCH_RUNS, default 3, per customer)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';

const root = path.resolve(import.meta.dirname, '..');
const built = (file) => import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const ENTRIES = 10_000;
const BIG = 'bench.export@example.com';

/** The database settings of every process: embedded PGlite in `dataDir`, or the fresh database. */
const storage = (dataDir, databaseUrl) =>
  databaseUrl ? { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir };

async function child(email, dataDir, databaseUrl) {
  const { loadConfig } = await built('config.js');
  const { buildApp } = await built('app.js');
  const { requestExport, runNextExport, readyExportFile } = await built('modules/data-rights/export-jobs.js');
  const { loadMessageTexts, createMessageSender } = await built('modules/messages/index.js');
  const config = loadConfig({
    NODE_ENV: 'development',
    ...storage(dataDir, databaseUrl),
    LOG_LEVEL: 'error',
    DATA_RIGHTS_INTERVAL_SECONDS: '86400',
  });
  const app = await buildApp(config);
  await app.ready();
  const db = app.db;
  const customer = await db
    .selectFrom('customers')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const deps = {
    db,
    texts: await loadMessageTexts(config.contentDir),
    sender: createMessageSender({ db, log: app.log, from: 'bench@example.com' }),
    publicUrl: config.publicUrl,
  };
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    await db.deleteFrom('data_exports').where('customer_id', '=', customer.id).execute();
    global.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const started = performance.now();
    await requestExport(db, customer.id, new Date());
    await runNextExport(deps, new Date());
    const builtAt = performance.now();
    const file = await readyExportFile(db, customer.id, new Date());
    let bytes = 0;
    await pipeline(
      file.stream,
      new Writable({
        write(chunk, _e, cb) {
          bytes += chunk.length;
          cb();
        },
      }),
    );
    const streamed = performance.now();
    clearInterval(sampler);
    results.push({
      buildMs: builtAt - started,
      downloadMs: streamed - builtAt,
      bytes,
      extraMb: (peak - before) / 2 ** 20,
    });
  }
  await app.close();
  console.log(JSON.stringify(results));
}

async function seed(dataDir, databaseUrl) {
  const { loadConfig } = await built('config.js');
  const { buildApp } = await built('app.js');
  const { createCustomerRepository } = await built('modules/customers/customer-repository.js');
  const app = await buildApp(
    loadConfig({ NODE_ENV: 'development', ...storage(dataDir, databaseUrl), LOG_LEVEL: 'error' }),
  );
  await app.ready();
  const db = app.db;
  const customer = await createCustomerRepository(db).create({
    email: BIG,
    password: 'Bench-2026!',
    legal_entity_id: 10,
    language: 'de_DE',
    salutation: 'FRAU',
    first_name: 'Bench',
    last_name: 'Export',
  });
  await db
    .insertInto('loyalty_accounts')
    .values({
      customer_id: customer.id,
      balance: 55_000,
      tier: 'sapphire-diamond',
      tier_expiration_date: null,
      event_count: ENTRIES,
    })
    .execute();
  await sql`
    insert into loyalty_events
      (customer_id, seq, source_id, type, points, occurred_at, expires_at, remaining_points, description, tier_after)
    select ${customer.id}::uuid, g, 'bench:' || g, 'rental-completed', 1 + g % 10,
           now() - (${ENTRIES} - g) * interval '47 minutes', now() - (${ENTRIES} - g) * interval '47 minutes' + interval '12 months',
           1 + g % 10, 'Rental ' || g, 'sapphire-diamond'
    from generate_series(1, ${ENTRIES}) as g`.execute(db);
  await app.close();
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], process.argv[5]);
  process.exit(0);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-export-'));
const server = process.env.BENCH_DATABASE_URL;
let databaseUrl;
let admin;
if (server) {
  const { default: pg } = await import('pg');
  admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const name = `bench_export_${process.pid}`;
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
}
try {
  await seed(dataDir, databaseUrl);
  for (const [label, email] of [
    ['demo.de (250 entries)', 'demo.de@example.com'],
    [`${ENTRIES} entries`, BIG],
  ]) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', import.meta.filename, '--child', email, dataDir, ...(databaseUrl ? [databaseUrl] : [])],
      { encoding: 'utf8' },
    );
    const results = JSON.parse(out.trim().split('\n').at(-1));
    const worst = (key) => Math.max(...results.map((r) => r[key]));
    const median = (key) => results.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
    console.log(
      `${label}: build median ${median('buildMs').toFixed(0)} ms (worst ${worst('buildMs').toFixed(0)}), ` +
        `download ${median('downloadMs').toFixed(0)} ms, ZIP ${(results[0].bytes / 1024).toFixed(0)} kB, ` +
        `extra memory worst ${worst('extraMb').toFixed(1)} MB (${runs} runs)`,
    );
  }
  console.log(`storage: ${databaseUrl ? 'PostgreSQL server (fresh database)' : 'embedded PGlite'}`);
} finally {
  if (admin) {
    await admin.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
