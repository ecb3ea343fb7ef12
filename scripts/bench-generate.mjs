#!/usr/bin/env node
// npm run bench:generate: fills a PostgreSQL database of its own with a million customers for the
// benchmarks of docs/performance.md#a-million-customers-issue-21 — 1 000 000 customers (loyalty
// members in the eight countries), 50 000 000 ledger entries, 2 000 000 sign-in sessions.
// Spread of the ledger: 100 customers with 10 000 entries each, everyone else 20–78 (about 49).
// Everything is made inside PostgreSQL with generate_series (no rows cross the network); the
// tables' change-notice triggers are skipped while loading (session_replication_role = replica).
// Usage: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/roadpass_million npm run bench:generate
//        (the default; the database is created when missing and must not be `test`).
//        BENCH_CUSTOMERS / BENCH_HEAVY_CUSTOMERS / BENCH_SESSIONS scale it down for a try.
// Needs a build (npm run build): the schema comes from the server's own migrations.
import path from 'node:path';
import pg from 'pg';

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
process.env.NODE_ENV = 'production';
const { hashPassword } = await import(path.join(root, 'apps/server/dist/lib/password-hash.js'));
const hash = await hashPassword(PASSWORD);
await db.query(`set session_replication_role = replica`);
await db.query(`set synchronous_commit = off`);

const step = async (what, sql, params = []) => {
  const t = Date.now();
  const result = await db.query(sql, params);
  log(`${what}: ${result.rowCount ?? ''} rows in ${((Date.now() - t) / 1000).toFixed(0)} s`);
};

// Customers: m1@million.example … spread over the eight legal entities, one password hash (the
// production cost, computed once) shared by all: sign-in benchmarks use it.
await step(
  'customers',
  `insert into customers (email, password_hash, legal_entity_id, language, salutation, first_name, last_name,
     birth_date, phone, address_street, address_city, address_zip_code, address_country_iso_code, created_at, updated_at)
   select 'm' || n || '@million.example', $1, e.legal_entity_id, e.languages[1] || '_' || e.iso_country, 'FRAU',
     'Mila', 'Kunde' || translate(n::text, '0123456789', 'abcdefghij'), '1990-06-01', null, 'Hauptstrasse 1',
     'Stadt', '10115', e.iso_country, now() - (n % 1000) * interval '1 day', now()
   from generate_series(1, $2::int) n
   join (select legal_entity_id, iso_country, languages, row_number() over (order by legal_entity_id) - 1 as k
         from legal_entities) e on e.k = n % (select count(*) from legal_entities)`,
  [hash, CUSTOMERS],
);
await step(
  'core consents',
  `insert into customer_consents (customer_id, slug, legal_entity_id, granted)
   select id, 'loyalty-core-cC6D', legal_entity_id, true from customers where email like 'm%@million.example'`,
);
// Entries per customer: the first HEAVY customers (by e-mail number) 10 000, the others 20–78.
await db.query(
  `create temporary table counts as
  select c.id, case when substr(c.email, 2, length(c.email) - 17)::int <= $1 then 10000
                    else 20 + (hashtext(c.id::text) & 2147483647) % 59 end as n
  from customers c where email like 'm%@million.example'`,
  [HEAVY],
);
await step(
  'loyalty accounts',
  `insert into loyalty_accounts (customer_id, balance, tier, tier_expiration_date, event_count, updated_at)
   select id, n * 5, 'sky-blue', null, n, now() from counts`,
);
// Indexes and constraints of the ledger are built once after the load, not row by row (about ten
// times faster); the same definitions, read from the catalog, so the result is the migrated schema.
const { rows: constraints } = await db.query(
  `select conname, pg_get_constraintdef(oid) as def from pg_constraint
   where conrelid = 'loyalty_events'::regclass and contype in ('u', 'f')`,
);
const { rows: indexes } = await db.query(
  `select indexname, indexdef from pg_indexes where tablename = 'loyalty_events'
   and indexname not in (select conname from pg_constraint where conrelid = 'loyalty_events'::regclass)`,
);
for (const c of constraints) await db.query(`alter table loyalty_events drop constraint "${c.conname}"`);
for (const i of indexes) await db.query(`drop index "${i.indexname}"`);
await step(
  'ledger entries',
  `insert into loyalty_events (customer_id, seq, source_id, type, points, occurred_at, expires_at,
     remaining_points, description, tier_after, recorded_at)
   select c.id, s, 'gen-' || c.id || '-' || s, 'rental-completed', 5,
     now() - (c.n - s) * interval '1 hour', now() - (c.n - s) * interval '1 hour' + interval '2 years',
     5, '', 'sky-blue', now() - (c.n - s) * interval '1 hour'
   from counts c, generate_series(1, c.n) s`,
);
await db.query(`set maintenance_work_mem = '512MB'`);
for (const c of constraints)
  await step(`constraint ${c.conname}`, `alter table loyalty_events add constraint "${c.conname}" ${c.def}`);
for (const i of indexes) await step(`index ${i.indexname}`, i.indexdef);
// Sessions as oidc-provider stores them (kind Session, payload with accountId), spread over the
// customers: two per customer on average.
await step(
  'sessions',
  `insert into oidc_model_instances (kind, id, payload, uid, expires_at)
   select 'Session', 'gen-' || s, jsonb_build_object('accountId', c.id, 'uid', 'gen-uid-' || s,
     'loginTs', extract(epoch from now())::int, 'exp', extract(epoch from now() + interval '8 hours')::int),
     'gen-uid-' || s, now() + interval '8 hours'
   from generate_series(1, $1::int) s
   join lateral (select id from customers where email = 'm' || (1 + (s % $2::int)) || '@million.example') c on true`,
  [SESSIONS, CUSTOMERS],
);
await db.query('analyze');
const { rows: size } = await db.query(`select pg_size_pretty(pg_database_size(current_database())) as size`);
log(`done: database ${dbName} is ${size[0].size}`);
await db.end();
