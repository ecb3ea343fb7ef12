#!/usr/bin/env node
// npm run bench:generate: fills a PostgreSQL database of its own with a million customers for the
// benchmarks of docs/performance.md#a-million-customers-issue-21 — 1 000 000 customers (loyalty
// members in the eight countries), 50 000 000 ledger entries, 2 000 000 sign-in sessions.
// Spread of the ledger: 100 customers with about 10 000 entries each, everyone else about 20–78
// (about 49), over the last two years. Each lot expires 12 months after it was earned, as the
// server's rule says (validityEnd of the loyalty module, imported from the build). The lots whose
// 12 months were over before yesterday's nightly run already have their expiry entries, recorded at
// that night's run, in ledger order among the rentals, and no points left: what is due is about a
// day's worth, the lots that fell due since (as before tonight's run).
// Rows are made here and streamed with COPY … FROM STDIN (pg-copy-streams); the ledger's indexes and
// unique constraints are built once after the load, and foreign-key and change-notice triggers are
// skipped while loading (session_replication_role = replica: the rows are consistent by construction).
// Usage: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/roadpass_million npm run bench:generate
//        (the default; the database is created when missing and must not be `test`).
//        BENCH_CUSTOMERS / BENCH_HEAVY_CUSTOMERS / BENCH_SESSIONS scale it down for a try;
//        BENCH_COUNTRIES=DE puts every customer in those countries.
// Needs a build (npm run build): the schema comes from the server's own migrations.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
const { validityEnd, nextTierState, qualifyingWindowStart, entryTier } = await import(
  path.join(root, 'apps/server/dist/modules/loyalty/loyalty-rules.js')
);
// The programme's tiers and thresholds (content/loyalty/programme.json), as the server loads them.
const tierRules = JSON.parse(
  readFileSync(path.join(root, 'content/loyalty/programme.json'), 'utf8'),
).tiers.map((t) => ({ slug: t.slug, threshold: t.threshold }));
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

// Entries per customer (rentals and the expiry entries of those that expired): the first HEAVY
// customers about 10 000, the others about 20–78 (about 49 on average), five to fifty points each.
const counts = new Uint16Array(CUSTOMERS);
for (let k = 0; k < CUSTOMERS; k++) counts[k] = k < HEAVY ? 10_000 : 20 + Math.floor(random() * 59);
// How much a customer rents: most a little, some more (points per rental ×3, ×8, ×15 for 20 %, 8 %
// and 2 % of them), so that the tiers spread as in a programme with a history: mostly the entry tier,
// some silver, a few gold and diamond (the heavy customers reach the top).
const spendOf = (k) => {
  const h = Math.imul(k + 1, 2654435761) >>> 24; // 0–255, spread over k
  return h < 179 ? 1 : h < 230 ? 3 : h < 251 ? 8 : 15;
};
const pointsOf = (k, s) => (5 + ((k * 31 + s * 17) % 46)) * spendOf(k);
// What the ledger's rows make of each account, summed while they are generated; the accounts are
// copied after the ledger (no foreign-key check while loading).
const balances = new Int32Array(CUSTOMERS);
const eventCounts = new Uint16Array(CUSTOMERS);
// Each account's tier as the rules make it (nextTierState after every rental and at the last nightly
// run, on the points of the 12 months before), and when it is computed again (ms; 0 for none).
const tiers = new Array(CUSTOMERS);
const tierEnds = new Float64Array(CUSTOMERS);
const tierCounts = new Map();

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
// Each customer's rentals: one every (two years / r), the first within one spacing of two years ago.
// A lot expires 12 months after it was earned; the nightly job last ran a day ago (`lastRun`), at
// that time of day every night before: a lot due by then was expired by the first run at or after
// its expiry (an entry of type expiry recorded then, the lot's points left set to 0); a lot due
// since is left due. About half the lots of two years are expired: r is chosen so that rentals and
// expiry entries together make the customer's count.
const SPAN = 730 * DAY;
// A real ledger is written as rentals come in, every customer's among everyone else's, so that a
// customer's entries lie on as many table pages as they have entries. Written customer by customer,
// each customer's ~49 entries shared one or two pages, and a history page at a million read 1–2 of
// the table's pages instead of 20 (until 30 Nov 2026). The entries of each block of INTERLEAVED
// customers are therefore written in the order they were recorded: a measured customer (about one
// in a hundred) then finds each entry on a page of its own, as in a ledger written over two years.
const INTERLEAVED = Math.max(1, Number(process.env.BENCH_INTERLEAVED_CUSTOMERS ?? 1000) || 1);
const lastRun = now - DAY;
const expiredShare = (SPAN - 365.25 * DAY - DAY) / SPAN;
// Rows get their ids here (COPY takes values for the identity column): an expiry entry's source id
// names its lot's id (expiry:{id}, as the job writes it). The sequence is moved past them after.
const { rows: lastId } = await db.query(`select coalesce(max(id), 0)::bigint as id from loyalty_events`);
let nextId = BigInt(lastId[0].id) + 1n;
const iso = (ms) => new Date(ms).toISOString();
await copy(
  'loyalty_events',
  [
    'id',
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
    // A block's entries, [recorded at, row], written in the order they were recorded (INTERLEAVED).
    let block = [];
    for (let k = 0; k < CUSTOMERS; k++) {
      const rentals = Math.max(1, Math.round(counts[k] / (1 + expiredShare)));
      const spacing = SPAN / rentals;
      const start = now - SPAN + random() * spacing;
      const customer = ids[k];
      let seq = 0;
      let balance = 0;
      let tierState = { tier: entryTier(tierRules), tierExpirationDate: null };
      // The rentals of the last 12 months: from `windowFirst` on in `earned`, `windowPoints` in all.
      const earned = [];
      let windowFirst = 0;
      let windowPoints = 0;
      const tierAt = (at) => {
        const from = qualifyingWindowStart(new Date(at)).getTime();
        while (windowFirst < earned.length && earned[windowFirst].at <= from)
          windowPoints -= earned[windowFirst++].points;
        tierState = nextTierState(tierState, windowPoints, new Date(at), tierRules);
        return tierState.tier;
      };
      /** Lots expired by a nightly run, oldest first, waiting (from `first` on) for their run's place in the ledger. */
      const expiring = [];
      let first = 0;
      const waiting = () => first < expiring.length;
      const writeExpiry = () => {
        const lot = expiring[first++];
        seq += 1;
        block.push([
          lot.runAt,
          `${nextId++}\t${customer}\t${seq}\texpiry:${lot.id}\texpiry\t${-lot.points}\t${iso(lot.expiresAt)}\t\\N\t0\t\t${tierAt(lot.runAt)}\t${iso(lot.runAt)}\n`,
        ]);
      };
      for (let s = 1; s <= rentals; s++) {
        const occurred = start + (s - 1) * spacing;
        while (waiting() && expiring[first].runAt <= occurred) writeExpiry();
        const expiresAt = validityEnd(new Date(occurred)).getTime();
        const points = pointsOf(k, s);
        const expired = expiresAt <= lastRun;
        const id = nextId++;
        seq += 1;
        earned.push({ at: occurred, points });
        windowPoints += points;
        block.push([
          occurred,
          `${id}\t${customer}\t${seq}\trental-${customer.slice(0, 8)}-${s}\trental-completed\t${points}\t${iso(occurred)}\t${iso(expiresAt)}\t${expired ? 0 : points}\t\t${tierAt(occurred)}\t${iso(occurred)}\n`,
        ]);
        if (expired) {
          // The first nightly run at or after the expiry.
          const runAt = lastRun - Math.floor((lastRun - expiresAt) / DAY) * DAY;
          expiring.push({ id, points, expiresAt, runAt });
        } else balance += points;
      }
      while (waiting()) writeExpiry();
      // Last night's run recomputed a tier due by then; one due since is left due, like the lots.
      if (tierState.tierExpirationDate !== null && tierState.tierExpirationDate.getTime() <= lastRun)
        tierAt(lastRun);
      tiers[k] = tierState.tier;
      tierEnds[k] = tierState.tierExpirationDate?.getTime() ?? 0;
      tierCounts.set(tierState.tier, (tierCounts.get(tierState.tier) ?? 0) + 1);
      balances[k] = balance;
      eventCounts[k] = seq;
      if ((k + 1) % INTERLEAVED === 0 || k === CUSTOMERS - 1) {
        block.sort((a, b) => a[0] - b[0]);
        for (let i = 0; i < block.length; i += 5000) yield block.slice(i, i + 5000).map(([, row]) => row);
        block = [];
      }
    }
  },
);
await step(
  'identity sequence past the ids given',
  `select setval(pg_get_serial_sequence('loyalty_events', 'id'), (select max(id) from loyalty_events))`,
);
log(`tiers: ${[...tierCounts].map(([tier, n]) => `${tier} ${n}`).join(', ')}`);
await copy(
  'loyalty_accounts',
  ['customer_id', 'balance', 'tier', 'tier_expiration_date', 'event_count', 'updated_at'],
  function* () {
    const at = new Date(now).toISOString();
    for (let i = 0; i < CUSTOMERS; i += 10_000) {
      const batch = [];
      for (let k = i; k < Math.min(CUSTOMERS, i + 10_000); k++)
        batch.push(
          `${ids[k]}\t${balances[k]}\t${tiers[k]}\t${tierEnds[k] ? iso(tierEnds[k]) : '\\N'}\t${eventCounts[k]}\t${at}\n`,
        );
      yield batch;
    }
  },
);
for (const c of constraints.filter((c) => c.def.startsWith('UNIQUE')))
  await step(`constraint ${c.conname}`, `alter table loyalty_events add constraint "${c.conname}" ${c.def}`);
for (const i of indexes) await step(`index ${i.indexname}`, i.indexdef);

// Sessions as oidc-provider stores them (kind Session, payload with accountId and the portal's
// authorization holding the session id that access tokens carry as `sid`) and as the security page
// lists them (session_devices, migration 0012: one row per such sid, written at sign-in by the
// identity provider's grant.success), two per customer on average, some customers with none.
// Signed in at some time in the last 7 hours, ending 8 hours after (SESSION_TTL_SECONDS' default).
const sessionCustomers = new Int32Array(SESSIONS);
const signedInAt = new Float64Array(SESSIONS);
for (let s = 0; s < SESSIONS; s++) {
  sessionCustomers[s] = Math.floor(random() * CUSTOMERS);
  signedInAt[s] = Math.floor((now - random() * 7 * 3600_000) / 1000) * 1000;
}
const SESSION_MS = 8 * 3600_000;
await copy(
  'oidc_model_instances',
  ['kind', 'id', 'payload', 'uid', 'expires_at', 'account_id'],
  function* () {
    for (let i = 0; i < SESSIONS; i += 10_000) {
      const batch = [];
      for (let s = i; s < Math.min(SESSIONS, i + 10_000); s++) {
        const id = ids[sessionCustomers[s]];
        const loginTs = signedInAt[s] / 1000;
        const payload = JSON.stringify({
          accountId: id,
          uid: `gen-uid-${s}`,
          jti: `gen-${s}`,
          kind: 'Session',
          loginTs,
          authorizations: { 'portal-client': { sid: `gen-sid-${s}` } },
          exp: loginTs + SESSION_MS / 1000,
        });
        batch.push(
          `Session\tgen-${s}\t${payload}\tgen-uid-${s}\t${iso(signedInAt[s] + SESSION_MS)}\t${id}\n`,
        );
      }
      yield batch;
    }
  },
);
// Devices and networks of the kind the security page describes (ua-parser-js, the place database).
const userAgents = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
];
await copy(
  'session_devices',
  ['sid', 'customer_id', 'user_agent', 'address', 'signed_in_at', 'last_active_at', 'expires_at'],
  function* () {
    for (let i = 0; i < SESSIONS; i += 10_000) {
      const batch = [];
      for (let s = i; s < Math.min(SESSIONS, i + 10_000); s++) {
        const at = signedInAt[s];
        const lastActive = at + ((s * 7919) % Math.max(1, now - at));
        batch.push(
          `gen-sid-${s}\t${ids[sessionCustomers[s]]}\t${userAgents[s % userAgents.length]}\t198.51.${s % 256}.${(s >> 8) % 256}\t${iso(at)}\t${iso(lastActive)}\t${iso(at + SESSION_MS)}\n`,
        );
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
  'session_devices',
  'customers',
  'loyalty_accounts',
  'customer_consents',
])
  await step(`vacuum (analyze) ${table}`, `vacuum (analyze) ${table}`);
const { rows: size } = await db.query(`select pg_size_pretty(pg_database_size(current_database())) as size`);
log(`done: database ${dbName} is ${size[0].size}`);
await db.end();
