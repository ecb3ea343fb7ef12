#!/usr/bin/env node
// npm run bench:generate: fills a PostgreSQL database of its own with a million customers for the
// benchmarks of docs/performance.md#a-million-customers-issue-21 — 1 000 000 customers (loyalty
// members in the eight countries), 50 000 000 ledger entries, 2 000 000 sign-in sessions.
// Spread of the ledger: 100 customers with 10 000 entries each, everyone else 20–78 (about 49), over
// the last two years, each lot expiring two years after it was earned (about a day's worth of lots
// is due, as before a nightly expiry run).
// Rows are made here and streamed with COPY … FROM STDIN (pg-copy-streams); the ledger's indexes and
// unique constraints are built once after the load, and foreign-key and change-notice triggers are
// skipped while loading (session_replication_role = replica: the rows are consistent by construction).
// Usage: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/roadpass_million npm run bench:generate
//        (the default; the database is created when missing and must not be `test`).
//        BENCH_CUSTOMERS / BENCH_HEAVY_CUSTOMERS / BENCH_SESSIONS scale it down for a try;
//        BENCH_COUNTRIES=DE puts every customer in those countries.
// Needs a build (npm run build): the schema comes from the server's own migrations.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const root = path.resolve(import.meta.dirname, '..');
const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million');
const dbName = url.pathname.slice(1);
if (!dbName || dbName === 'test' || dbName === 'postgres')
  throw new Error(`refusing to fill database "${dbName}"`);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const HEAVY = Number(process.env.BENCH_HEAVY_CUSTOMERS ?? 100);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2_000_000);
const PASSWORD = 'Bench-Million-2026!';
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}`);

const adminUrl = new URL(url);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.href });
await admin.connect();
const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
if (exists.rowCount === 0) await admin.query(`create database "${dbName}"`);
await admin.end();

const { openDatabase } = await import(path.join(root, 'apps/server/dist/db/database.js'));
const { migrateToLatest } = await import(path.join(root, 'apps/server/dist/db/migrate.js'));
const { seedReferenceData } = await import(path.join(root, 'apps/server/dist/db/seed.js'));
const kysely = await openDatabase({ databaseUrl: url.href, dataDir: '', poolSize: 2 });
await migrateToLatest(kysely);
await seedReferenceData(kysely);
await kysely.destroy();
log('schema up to date');

const db = new pg.Client({ connectionString: url.href });
await db.connect();
const { rows: already } = await db.query(
  `select count(*)::int as n from customers where email like 'm%@million.example'`,
);
if (already[0].n >= CUSTOMERS) {
  log(`${already[0].n} customers already there: nothing to do (drop the database to start again)`);
  process.exit(0);
}
if (already[0].n > 0) throw new Error('a half-made million: drop the database and start again');
process.env.NODE_ENV = 'production';
const { hashPassword } = await import(path.join(root, 'apps/server/dist/lib/password-hash.js'));
const hash = await hashPassword(PASSWORD);
await db.query(`set session_replication_role = replica`);
await db.query(`set synchronous_commit = off`);
await db.query(`set maintenance_work_mem = '512MB'`);

const step = async (what, sql, params = []) => {
  const t = Date.now();
  const result = await db.query(sql, params);
  log(`${what}: ${result.rowCount ?? ''} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
};

/** COPY table (columns) FROM STDIN, the rows coming from a generator of text lines in batches. */
const copy = async (table, columns, batches) => {
  const t = Date.now();
  let rows = 0;
  const counted = async function* () {
    for (const batch of batches()) {
      rows += batch.length;
      yield batch.join('');
    }
  };
  await pipeline(
    Readable.from(counted()),
    db.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)),
  );
  const s = (Date.now() - t) / 1000;
  log(`${table}: ${rows} rows by COPY in ${s.toFixed(0)} s (${Math.round(rows / s)} rows/s)`);
};

/** A small deterministic generator (mulberry32): the same database every run. */
let seed = 21;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const letters = (n) => n.toString().replace(/\d/g, (d) => 'abcdefghij'[d]);

// BENCH_COUNTRIES (e.g. DE) keeps the customers in those countries only (the 8-customer comparison).
const countries = process.env.BENCH_COUNTRIES?.split(',');
const { rows: entities } = await db.query(
  `select legal_entity_id, iso_country, languages from legal_entities
   where $1::text[] is null or iso_country = any($1) order by legal_entity_id`,
  [countries ?? null],
);
if (entities.length === 0) throw new Error(`no legal entity in ${countries}`);
const ids = Array.from({ length: CUSTOMERS }, () => randomUUID());
const entityOf = (i) => entities[i % entities.length];
const now = Date.now();
const DAY = 86_400_000;

// Customers: m1@million.example … spread over the eight legal entities, one password hash (the
// production cost, computed once) shared by all: sign-in benchmarks use it.
function* customerRows() {
  for (let i = 0; i < CUSTOMERS; i += 5000) {
    const batch = [];
    for (let k = i; k < Math.min(CUSTOMERS, i + 5000); k++) {
      const e = entityOf(k);
      const created = new Date(now - (k % 1000) * DAY).toISOString();
      batch.push(
        `${ids[k]}\tm${k + 1}@million.example\t${hash}\t${e.legal_entity_id}\t${e.languages[0]}_${e.iso_country}\tFRAU\tMila\tKunde${letters(k + 1)}\t1990-06-01\tHauptstrasse 1\tStadt\t10115\t${e.iso_country}\t${created}\t${created}\n`,
      );
    }
    yield batch;
  }
}
await copy(
  'customers',
  [
    'id',
    'email',
    'password_hash',
    'legal_entity_id',
    'language',
    'salutation',
    'first_name',
    'last_name',
    'birth_date',
    'address_street',
    'address_city',
    'address_zip_code',
    'address_country_iso_code',
    'created_at',
    'updated_at',
  ],
  customerRows,
);
await copy('customer_consents', ['customer_id', 'slug', 'legal_entity_id', 'granted'], function* () {
  for (let i = 0; i < CUSTOMERS; i += 10_000) {
    const batch = [];
    for (let k = i; k < Math.min(CUSTOMERS, i + 10_000); k++)
      batch.push(`${ids[k]}\tloyalty-core-cC6D\t${entityOf(k).legal_entity_id}\tt\n`);
    yield batch;
  }
});

// Entries per customer: the first HEAVY customers 10 000, the others 20–78 (about 49 on average),
// five to fifty points each.
const counts = new Uint16Array(CUSTOMERS);
for (let k = 0; k < CUSTOMERS; k++) counts[k] = k < HEAVY ? 10_000 : 20 + Math.floor(random() * 59);
const pointsOf = (k, s) => 5 + ((k * 31 + s * 17) % 46);
await copy('loyalty_accounts', ['customer_id', 'balance', 'tier', 'event_count', 'updated_at'], function* () {
  const at = new Date(now).toISOString();
  for (let i = 0; i < CUSTOMERS; i += 10_000) {
    const batch = [];
    for (let k = i; k < Math.min(CUSTOMERS, i + 10_000); k++) {
      let balance = 0;
      for (let s = 1; s <= counts[k]; s++) balance += pointsOf(k, s);
      batch.push(`${ids[k]}\t${balance}\tsky-blue\t${counts[k]}\t${at}\n`);
    }
    yield batch;
  }
});

// The ledger: its indexes and unique constraints go before the load and come back after it, with
// the same definitions read from the catalog, so the result is the migrated schema.
const { rows: constraints } = await db.query(
  `select conname, pg_get_constraintdef(oid) as def from pg_constraint
   where conrelid = 'loyalty_events'::regclass and contype in ('u', 'p')`,
);
const { rows: indexes } = await db.query(
  `select indexname, indexdef from pg_indexes where tablename = 'loyalty_events'
   and indexname not in (select conname from pg_constraint where conrelid = 'loyalty_events'::regclass)`,
);
for (const i of indexes) await db.query(`drop index "${i.indexname}"`);
for (const c of constraints.filter((c) => c.def.startsWith('UNIQUE')))
  await db.query(`alter table loyalty_events drop constraint "${c.conname}"`);
// The primary key stays only if something references it (the reminders table does): dropping it
// would need CASCADE. Its index is then kept up row by row.
// Each customer's entries: one every (two years / n), so the oldest lots are about to expire (a day's worth due).
const SPAN = 730 * DAY;
await copy(
  'loyalty_events',
  [
    'customer_id',
    'seq',
    'source_id',
    'type',
    'points',
    'occurred_at',
    'expires_at',
    'remaining_points',
    'description',
    'tier_after',
    'recorded_at',
  ],
  function* () {
    let batch = [];
    for (let k = 0; k < CUSTOMERS; k++) {
      const n = counts[k];
      // The first lot expires somewhere in [now - 1 day, now - 1 day + spacing]: due for about
      // one customer in fifteen (a nightly run's worth), the rest later.
      const offset = random() * (SPAN / n);
      const id = ids[k];
      for (let s = 1; s <= n; s++) {
        const occurred = now - SPAN - DAY + offset + ((s - 1) / n) * SPAN;
        const at = new Date(occurred).toISOString();
        const points = pointsOf(k, s);
        batch.push(
          `${id}\t${s}\trental-${id.slice(0, 8)}-${s}\trental-completed\t${points}\t${at}\t${new Date(occurred + SPAN).toISOString()}\t${points}\t\tsky-blue\t${at}\n`,
        );
      }
      if (batch.length >= 5000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  },
);
for (const c of constraints.filter((c) => c.def.startsWith('UNIQUE')))
  await step(`constraint ${c.conname}`, `alter table loyalty_events add constraint "${c.conname}" ${c.def}`);
for (const i of indexes) await step(`index ${i.indexname}`, i.indexdef);

// Sessions as oidc-provider stores them (kind Session, payload with accountId) and as the security
// page lists them (session_devices), two per customer on average, some customers with none.
await copy(
  'oidc_model_instances',
  ['kind', 'id', 'payload', 'uid', 'expires_at', 'account_id'],
  function* () {
    const exp = new Date(now + 8 * 3600_000).toISOString();
    const loginTs = Math.floor(now / 1000);
    for (let i = 0; i < SESSIONS; i += 10_000) {
      const batch = [];
      for (let s = i; s < Math.min(SESSIONS, i + 10_000); s++) {
        const id = ids[Math.floor(random() * CUSTOMERS)];
        const payload = JSON.stringify({
          accountId: id,
          uid: `gen-uid-${s}`,
          jti: `gen-${s}`,
          kind: 'Session',
          loginTs,
          exp: loginTs + 8 * 3600,
        });
        batch.push(`Session\tgen-${s}\t${payload}\tgen-uid-${s}\t${exp}\t${id}\n`);
      }
      yield batch;
    }
  },
);
// As autovacuum would after such a load, at once: hint bits and the visibility map set (index-only
// scans read no table pages), statistics current.
for (const table of [
  'loyalty_events',
  'oidc_model_instances',
  'customers',
  'loyalty_accounts',
  'customer_consents',
])
  await step(`vacuum (analyze) ${table}`, `vacuum (analyze) ${table}`);
const { rows: size } = await db.query(`select pg_size_pretty(pg_database_size(current_database())) as size`);
log(`done: database ${dbName} is ${size[0].size}`);
await db.end();
