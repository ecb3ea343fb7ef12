#!/usr/bin/env node
// Benchmark: the loyalty history call for a member with 10 000 ledger entries, page 0 (newest) against
// page 99 (oldest) at page size 100. A page is an index range on (customer_id, seq), so both should
// cost the same. Runs on embedded PGlite (fresh data dir) and, when DATABASE_URL or TEST_DATABASE_URL
// is set, on a fresh database of that PostgreSQL server (dropped afterwards).
// Usage: npm run build && node scripts/bench-history.mjs   (BENCH_SECONDS, default 10, per measurement;
// BENCH_CONNECTIONS, default 50)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const built = (file) => import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);
const { openDatabase } = await built('db/database.js');
const { migrateToLatest } = await built('db/migrate.js');
const { seedReferenceData } = await built('db/seed.js');
const { createCustomerRepository } = await built('modules/customers/customer-repository.js');

const ENTRIES = 10_000;
const PAGE_SIZE = 100;
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const email = 'bench.history@example.com';
const password = 'Bench-2026!';

/** One member with ENTRIES ledger entries over the last 11 months, written in one statement. */
async function seedLedger(db) {
  await migrateToLatest(db);
  await seedReferenceData(db);
  const customer = await createCustomerRepository(db).create({
    email,
    password,
    legal_entity_id: 10,
    language: 'de_DE',
    salutation: 'FRAU',
    first_name: 'Bench',
    last_name: 'History',
  });
  await db
    .insertInto('customer_consents')
    .values({ customer_id: customer.id, slug: 'loyalty-core-cC6D', legal_entity_id: 10, granted: true })
    .execute();
  // Points 1..10 per entry: 55 000 in total, sapphire diamond. 47 minutes apart, the newest just now.
  await db
    .insertInto('loyalty_accounts')
    .values({
      customer_id: customer.id,
      balance: (ENTRIES / 10) * 55,
      tier: 'sapphire-diamond',
      tier_expiration_date: new Date(Date.now() + 180 * 86_400_000),
      event_count: ENTRIES,
    })
    .execute();
  await sql`
    insert into loyalty_events
      (customer_id, seq, source_id, type, points, occurred_at, expires_at, remaining_points, description, tier_after)
    select ${customer.id}::uuid, g, 'bench:' || g, 'rental-completed', 1 + g % 10,
           now() - (${ENTRIES} - g) * interval '47 minutes',
           now() - (${ENTRIES} - g) * interval '47 minutes' + interval '12 months',
           1 + g % 10, 'Rental ' || g, 'sapphire-diamond'
    from generate_series(1, ${ENTRIES}) as g`.execute(db);
  await db.destroy();
}

const measure = (url, headers, seconds = duration) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx answers`));
      resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
    });
  });

/** Starts the built server on `env`, signs the member in, checks both pages, measures them. */
async function run(storage, env) {
  const port = 18000 + Math.floor(Math.random() * 1000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnServer(port, {
    ...env,
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    LOYALTY_EXPIRY_INTERVAL_SECONDS: '0',
  });
  try {
    await waitFor(`${baseUrl}/config.json`);
    const { access_token: token } = await httpSignIn(baseUrl, email, password);
    const uuid = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
    const headers = { authorization: `Bearer ${token}` };
    const pageUrl = (index) =>
      `${baseUrl}/api/customer/loyalty-service/customer/${uuid}/history?page_size=${PAGE_SIZE}&page_index=${index}`;
    const rows = [];
    // Warm up (JIT, caches) on both pages first, so the order of the measurements does not matter.
    for (const index of [0, ENTRIES / PAGE_SIZE - 1]) await measure(pageUrl(index), headers, 2);
    for (const index of [0, ENTRIES / PAGE_SIZE - 1]) {
      const page = await (await fetch(pageUrl(index), { headers })).json();
      if (page.content?.length !== PAGE_SIZE || page.totalElements !== ENTRIES) {
        throw new Error(
          `page ${index} is not a full page of ${ENTRIES} entries: ${JSON.stringify(page).slice(0, 200)}`,
        );
      }
      rows.push({ storage, index, ...(await measure(pageUrl(index), headers)) });
    }
    return rows;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

const results = [];

const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-history-'));
try {
  await seedLedger(await openDatabase({ databaseUrl: undefined, dataDir }));
  results.push(...(await run('embedded PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const postgresUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  const name = `roadpass_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  try {
    await seedLedger(await openDatabase({ databaseUrl: url.toString(), dataDir: '' }));
    results.push(...(await run('PostgreSQL server', { DATABASE_URL: url.toString() })));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

console.log(
  `\nGET history, ${ENTRIES} entries, page size ${PAGE_SIZE}, ${connections} connections, ${duration} s each, Node ${process.version}\n`,
);
console.log('| storage | page | requests/s | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|---:|');
for (const r of results)
  console.log(`| ${r.storage} | ${r.index} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} |`);
