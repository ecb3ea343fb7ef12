#!/usr/bin/env node
// npm run bench:million: every customer call on two databases of `npm run bench:generate` in one
// run, call by call: the small one (BENCH_SMALL_DATABASE_URL, default roadpass_eight: 8 customers,
// made afresh at every run)
// and the million (BENCH_DATABASE_URL, default roadpass_million). Each has its own built server
// (production settings, PostgreSQL); a bare Fastify hello-world runs in its own process too. Every
// call is measured on one database and straight after on the other, the order swapped from one call
// to the next, so both see the same machine (issue 21 §5: the p99 at a million against the p99 at
// eight, printed as their ratio). BENCH_SMALL_DATABASE_URL=none measures the million alone.
//   1. Sign-in: BENCH_SIGN_INS (100) with the production password hash (N=2^15), the whole
//      authorization-code flow, 4 at a time (customers the other steps do not touch where there are
//      enough; on the small database its 8 in turn). The sessions and security events it made are
//      deleted after it, so that the small database's 8 do not list 12 sessions more each (0058).
//   2. Tokens for the measured customers: up to BENCH_TOUCH (10 000) customers of Germany per round get a
//      password hash of the test suites' cost (N=2^12; a hash records its own cost) so that signing
//      them all in takes minutes, not an hour (and 200 more, to warm up a restarted server: 5 000 of every
//      read for them, never measured); then both servers are restarted, so no read cache holds any
//      of the measured customers, and warmed up with those 200. Then the million's tables and
//      indexes are read into memory (pg_prewarm): those every member's read uses into PostgreSQL's
//      own buffers as far as they fit, the rest into the page cache as far as the free memory allows
//      (prewarm, below): the calls meet the database as a server with the memory for it holds it,
//      and the report says how much of the buffers holds a page. PostgreSQL's shared_buffers
//      are printed with the report, with a warning under a fifth of the RAM (decision 0058) or when the
//      members' indexes do not fit in them (decision 0074), and whether
//      they lie on huge pages (decision 0063).
//   3. Every call, one pass of at least 10 000 requests (BENCH_PASS_REQUESTS, only to try the script) (BENCH_CONNECTIONS at a time, 16 by default; consecutive requests are
//      different customers, so at a million each call's pass touches every measured customer once;
//      on the small database the same 8 again and again, each signed in twice (at 16 connections) so
//      that both databases run a session per connection). The reads run with the read caches off (READ_CACHE_CUSTOMERS=0) on
//      both, so that the small database's are database reads too, not cache hits: p50, p99,
//      rate. The login status is measured twice: first as each token's first call on the restarted
//      instance (its RS256 check; 10 000 tokens at a million, 16 at eight: not alike), then as a read.
//      The reads, and the writes but the event batches, run in BENCH_ROUNDS (3) rounds, each on
//      10 000 customers of its own at a million (so 30 000 are signed in in step 2); every figure is
//      printed round by round, and the goals are judged by each call's median over the rounds (a
//      single pass's p99 is often one spell of the machine; decision 0073).
//      Then the servers restart with the read caches on (the default): "cached" repeats the login
//      status and the tier details for the first 500 customers of each round, in every round, and
//      the writes follow.
//      Each read is measured next to the bare Fastify (a pass straight before and after it): the
//      table after the main one gives its rate at a million as a share of the higher of those two
//      and of the run's highest bare rate, against issue 21 §5's 15 % (uncached) and 35 % (cached).
//   4. With BENCH_EXPIRY=1 (or =only: the million alone, steps 1 and 3 skipped): the expiry job
//      (`npm run loyalty -- expire`) on the million while 2 000 customers read history pages, with the
//      read caches off (every read asks PostgreSQL). Their rate is measured alone before the job, then during it in windows of one pass each, every
//      window logged as it ends. After BENCH_EXPIRY_READ_SECONDS (600) or the job's end, whichever
//      comes first, the reads stop and "reads during the job / reads before" is printed at once; then
//      the script waits for the job, logging the lots still due every 30 s. SIGINT or SIGTERM
//      prints whatever was measured before stopping (an outer time-out loses nothing measured).
// Writes change the databases (new cities, consents, partner codes, events, expired lots). Prints
// Markdown on stdout, progress on stderr.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freemem, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { autocannonPass, passFigures } from './autocannon-pass.mjs';
import {
  authorizedGet as get,
  BENCH_PASSWORD,
  benchServerEnv,
  germanCustomers,
  giveCheapPasswords,
  readPaths,
  signInAll,
} from './bench-customers.mjs';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnBaseline, spawnServer, stopOnExit } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const millionUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million';
const smallSetting =
  process.env.BENCH_SMALL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_eight';
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 100);
// BENCH_EXPIRY=only: just the expiry job under reads (2 000 customers signed in for the reads).
const EXPIRY_ONLY = process.env.BENCH_EXPIRY === 'only';
const WITH_EXPIRY = process.env.BENCH_EXPIRY === '1' || EXPIRY_ONLY;
const EXPIRY_READ_SECONDS = Number(process.env.BENCH_EXPIRY_READ_SECONDS ?? 600);
const TOUCH = Number(process.env.BENCH_TOUCH ?? (EXPIRY_ONLY ? 2000 : 10_000));
// Requests per pass of a call (the issue asks for at least 10 000; smaller only to try the script).
const PASS_REQUESTS = Number(process.env.BENCH_PASS_REQUESTS ?? 10_000);
const EXPIRY_READERS = 2000;
// Customers that warm a restarted server (every read, WARM_REQUESTS each) and are never measured.
const WARMERS = 200;
const WARM_REQUESTS = 5000;
/** A whole number from the environment, at least `min`; the script stops on anything else. */
function wholeNumber(name, fallback, min) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number, at least ${min}`);
  return value;
}
// Requests in flight (BENCH_CONNECTIONS, 16 by default, as in every run the reports compare). The
// bare Fastify reaches its rate at 16; the server gained up to 64 on 3 000 customers, but a whole run
// at 64 was slower (performance.md#connections, #huge-pages).
const CONNECTIONS = wholeNumber('BENCH_CONNECTIONS', 16, 1);
// Rounds (BENCH_ROUNDS, 3): every read and write but the event batches is measured once per round, on customers of its
// own at a million (BENCH_TOUCH each), and judged by the median over the rounds. One pass's p99 is
// its slowest 100 requests, and a spell of the machine (a collection, a burst of the other processes)
// sets it: the bare Fastify's p99, the same server on both sides, came out 0.9 to 6.5 times itself
// within single runs (performance.md#a-million-customers-issue-21-5). The expiry job's reads need one.
const ROUNDS = EXPIRY_ONLY ? 1 : wholeNumber('BENCH_ROUNDS', 3, 1);
// Measured customers of the million after the first BENCH_SKIP_CUSTOMERS (0) in the script's order:
// a second run on the same million then meets customers no run has read (first reads, lots due).
const SKIP_CUSTOMERS = wholeNumber('BENCH_SKIP_CUSTOMERS', 0, 0);
const firstPort = 18000 + Math.floor(Math.random() * 1000);
const baselinePort = firstPort + 1000;
const secret = 'bench-million-secret-0123456789abcdef';
const started = Date.now();
const log = (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const load = () => loadavg()[0].toFixed(1);
const databaseName = (url) => new URL(url).pathname.slice(1);
/** How many customers and sessions of a database the calls use. */
const measuredOf = (t) => {
  const sessions = t.customers?.length ?? 0;
  const customers = new Set(t.customers?.map((c) => c.id)).size;
  const measured =
    sessions === customers ? `${customers} measured` : `${customers} measured in ${sessions} sessions`;
  const perRound = t.roundCustomers?.[0]?.length;
  return ROUNDS > 1 && perRound !== sessions
    ? `${measured}, ${perRound} in each of ${ROUNDS} rounds`
    : measured;
};

/**
 * The default small database is made afresh for every run (`npm run bench:generate` with 8 customers
 * of Germany, as the million's measured ones are; a few seconds). A run's writes land on its 8
 * customers again and again (event batches gave each about 5 000 entries, sign-ins 30 sessions), and
 * the next run's forecast and sessions at eight read those: 188/s and 864/s on 29 Nov 2026, 4 540/s
 * and 4 031/s on a fresh one earlier that day. A small database named by BENCH_SMALL_DATABASE_URL is
 * the caller's, and kept.
 */
if (process.env.BENCH_SMALL_DATABASE_URL === undefined && !EXPIRY_ONLY) {
  const admin = new URL(smallSetting);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  await client.query(`drop database if exists ${databaseName(smallSetting)} with (force)`);
  await client.end();
  const generate = stopOnExit(
    spawn(process.execPath, ['scripts/bench-generate.mjs'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        BENCH_DATABASE_URL: smallSetting,
        BENCH_CUSTOMERS: '8',
        BENCH_HEAVY_CUSTOMERS: '0',
        BENCH_SESSIONS: '16',
        BENCH_COUNTRIES: 'DE',
      },
    }),
  );
  const code = await new Promise((resolve) => generate.once('exit', resolve));
  if (code !== 0) throw new Error(`bench:generate of ${databaseName(smallSetting)} ended with ${code}`);
  log(`${databaseName(smallSetting)}: made afresh`);
}

/** The databases, smallest first; each gets its own server. */
const targets = [
  ...(smallSetting === 'none' || EXPIRY_ONLY ? [] : [{ url: smallSetting }]),
  { url: millionUrl },
].map((t, i) => ({ ...t, name: databaseName(t.url), port: firstPort + i }));
const million = targets.at(-1);

// The expiry job runs in step 4 only, by the script itself.
const serverEnv = (target) => benchServerEnv(target.url, secret);
const base = (target) => `http://127.0.0.1:${target.port}`;

for (const target of targets) {
  target.db = new pg.Client({ connectionString: target.url });
  await target.db.connect();
  const { rows } = await target.db.query(`select count(*)::int as n from customers`);
  target.total = rows[0].n;
  const germans = await germanCustomers(
    target.db,
    TOUCH * ROUNDS + SIGN_INS + WARMERS,
    target === million ? SKIP_CUSTOMERS : 0,
  );
  if (germans.length === 0) throw new Error(`${target.name} has no customers of Germany from bench:generate`);
  const measuredCount = TOUCH * ROUNDS;
  // The production-hash sign-ins use customers the rest does not touch (when there are enough).
  target.signInCustomers =
    germans.length > measuredCount
      ? germans.slice(measuredCount, measuredCount + SIGN_INS)
      : germans.slice(0, SIGN_INS);
  // The warm-up customers: others than the measured ones where there are enough (on the small
  // database its 8, whom every call reads anyway).
  target.warmers =
    germans.length > measuredCount + SIGN_INS ? germans.slice(measuredCount + SIGN_INS) : germans;
  // Each round's customers: at a million TOUCH of its own (no round reads a customer another round
  // has read, so none finds the pages of its customers in PostgreSQL's buffers); on a small database
  // the same few in every round. Fewer customers than connections (the small database): each signs
  // in more than once, so that every call runs at the same concurrency on both databases, a session
  // per connection (refreshes use a refresh token once, so they need a session each).
  const few = germans.slice(0, TOUCH);
  const sessions =
    few.length < CONNECTIONS
      ? Array.from({ length: CONNECTIONS }, (_, i) => ({ ...few[i % few.length] }))
      : few;
  target.roundCustomers = Array.from({ length: ROUNDS }, (_, r) =>
    few.length < TOUCH ? sessions : germans.slice(r * TOUCH, (r + 1) * TOUCH),
  );
  /** Everyone measured, signed in once each (every round's customers). */
  target.customers = [...new Set(target.roundCustomers.flat())];
  // Each pass makes at least 10 000 requests: over 10 000 different customers at a million, over the
  // same few again and again on a small database. The event batches use the first round's (`list`).
  target.lists = target.roundCustomers.map((customers) =>
    Array.from(
      { length: Math.max(customers.length, PASS_REQUESTS) },
      (_, i) => customers[i % customers.length],
    ),
  );
  target.list = target.lists[0];
  target.app = spawnServer(target.port, serverEnv(target));
  log(`${target.name}: ${target.total} customers; ${measuredOf(target)}`);
}

const baseline = spawnBaseline(baselinePort);

/** Measured results: one row per call, one result per database. */
const results = [];
/** Lines printed after the table (the expiry job's). */
const notes = [];
/** A size in bytes as the log and the report write it: MB under a gigabyte, else GB to a tenth. */
const sizeText = (bytes) =>
  bytes < 2 ** 30 ? `${Math.round(bytes / 2 ** 20)} MB` : `${(bytes / 2 ** 30).toFixed(1)} GB`;

/**
 * One of PostgreSQL's settings in the report; with `advice`, the measurement may not be what the
 * operator's guide sizes, so it is logged at once too.
 */
function noteSetting(line, advice) {
  if (!advice) return notes.push(`${line}.`);
  log(`${line}: ${advice}`);
  notes.push(`${line}: ${advice}.`);
}

// PostgreSQL's settings that decide what a million's reads measure (one server for both databases).
const settings = (
  await million.db.query(
    `select (select setting::int8 * 8192 from pg_settings where name = 'shared_buffers') as buffer_bytes,
            current_setting('autovacuum') as autovacuum,
            current_setting('wal_compression') as wal_compression,
            current_setting('huge_pages') as huge_pages,
            current_setting('shared_memory_size_in_huge_pages', true) as huge_pages_needed`,
  )
).rows[0];
/** PostgreSQL's shared_buffers in bytes. */
const bufferBytes = Number(settings.buffer_bytes);

// The buffers: operations.md sizes them at a quarter of the RAM; Debian's default is 128 MB, with
// which a customer's first read at a million takes most of its index and table pages from the
// operating system's cache, or from the disk once the kernel has reclaimed them (decision 0058).
noteSetting(
  `PostgreSQL's shared_buffers: ${sizeText(bufferBytes)} of ${sizeText(totalmem())} RAM`,
  bufferBytes < totalmem() / 5 &&
    `below the quarter of RAM that docs/operations.md sizes (ALTER SYSTEM SET shared_buffers = '${Math.floor(totalmem() / 4 / 2 ** 30)}GB', then restart PostgreSQL)`,
);

// Autovacuum: this machine's PostgreSQL has it off (conf.d/90-ci.conf), so the dead rows of earlier
// runs on the same million stay (64 909 in oidc_model_instances after five runs, 30 Nov 2026). A
// production server has it on.
noteSetting(
  `PostgreSQL's autovacuum: ${settings.autovacuum}`,
  settings.autovacuum === 'off' &&
    'the dead rows of earlier runs on this database stay (production runs it on)',
);

// WAL compression (decision 0064): the fleet recipe sets lz4, which wrote about half the WAL of a run
// here; whether it also cost the writes some speed, four runs could not tell (performance.md).
noteSetting(`PostgreSQL's wal_compression: ${settings.wal_compression}`);

// Whether the buffers lie on huge pages (decision 0063). On 4 kB pages every PostgreSQL backend maps
// each buffer it touches with a page fault of its own, and at a million the calls touch buffers all
// over the 6 GB: the history's statement ran 1.7 times slower on them here (performance.md#huge-pages).
// PostgreSQL's default (huge_pages = try) uses huge pages only when the system has reserved enough
// (vm.nr_hugepages). Read from /proc/meminfo, so only where PostgreSQL runs on this machine.
/** PostgreSQL's buffers are on huge pages: reserved apart, so the free memory does not count them. */
let buffersOnHugePages = false;
if (['127.0.0.1', 'localhost', '[::1]'].includes(new URL(millionUrl).hostname)) {
  const { huge_pages: setting, huge_pages_needed: needed } = settings;
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const pages = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0);
  const reserved = pages('HugePages_Total');
  const inUse = reserved - pages('HugePages_Free') + pages('HugePages_Rsvd');
  buffersOnHugePages = setting !== 'off' && Number(needed) > 0 && inUse >= Number(needed);
  noteSetting(
    `PostgreSQL's huge pages (2 MB): huge_pages = ${setting}, ${needed ?? '?'} needed, ${reserved} reserved by the system, ${inUse} in use`,
    // Small buffers take few pages to map: the warning is for a gigabyte or more.
    !buffersOnHugePages &&
      bufferBytes >= 2 ** 30 &&
      `its buffers lie on 4 kB pages (sysctl -w vm.nr_hugepages=${needed ?? '…'}, huge_pages = try, then restart PostgreSQL; docs/operations.md)`,
  );
}

/** A result from latencies in milliseconds over `seconds`. */
const measured = (latencies, seconds, failed) => ({
  ...passFigures(latencies, seconds, failed),
  load: load(),
});

/**
 * Runs `one(item)` for every item, `connections` at a time; latencies of the 2xx answers. With
 * `owned`, item i always goes to connection i % connections (with the customers repeated in order
 * and at most one connection per customer, one customer's calls never overlap: a refresh token is
 * used once).
 */
async function pass(items, one, owned = false, connections = CONNECTIONS) {
  const latencies = [];
  let failed = 0;
  let next = 0;
  let firstFailure;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let k = worker; owned ? k < items.length : next < items.length; k += connections) {
        const item = items[owned ? k : next++];
        const t = performance.now();
        const res = await one(item);
        const body = await res.text();
        if (res.ok) latencies.push(performance.now() - t);
        else {
          failed += 1;
          firstFailure ??= `${res.status} ${body.slice(0, 200)}`;
        }
      }
    }),
  );
  if (firstFailure) log(`first failure: ${firstFailure}`);
  return { latencies, failed, seconds: (performance.now() - t0) / 1000 };
}
const passResult = (r) => measured(r.latencies, r.seconds, r.failed);

/** One request per item, CONNECTIONS at a time (autocannon-pass.mjs): rate, p50, p99 of the 2xx answers. */
async function blast(origin, items, build) {
  return passResult(await autocannonPass(origin, items, build, CONNECTIONS));
}

/**
 * The bare Fastify's rate now (a pass as long as a call's). The machine's speed drifts within minutes
 * (a hello-world from 17 000 to 37 000/s in one run), so each read's share is of the bare rate
 * measured straight before and after it, the higher of the two.
 */
const bareRate = async () =>
  (await blast(`http://127.0.0.1:${baselinePort}`, million.list, () => ({ path: '/hello' }))).rate;
/** Call title → the bare Fastify's rate next to it (the higher of before and after). */
const adjacentBare = new Map();

/** The customer reads measured in step 3. */
const reads = [
  ['login status', readPaths.loginStatus],
  ['tier details (loyalty page)', readPaths.tierDetails],
  ['history, newest page', readPaths.history],
  ['expiry forecast', readPaths.expiryForecast],
  ['consents', readPaths.consents],
  ['sessions (security page)', readPaths.sessions],
  ['security activity', readPaths.securityActivity],
  ['personal data', readPaths.personalData],
];

/**
 * Restarts every database's server with `env` over the benchmark's settings, then warms it: every
 * read, WARM_REQUESTS times, for the warm-up customers (never measured). A fresh process runs its
 * first thousands of requests at a fraction of its later rate (the JIT compiles as it goes), as the
 * bare Fastify does (which is warmed too); without this, the first call measured after a restart
 * (and the short cached passes) measured the compiler, not the server (28 Nov).
 */
async function restartServers(env, why) {
  for (const target of targets) {
    target.app.kill('SIGTERM');
    await new Promise((resolve) => target.app.once('exit', resolve));
    target.app = spawnServer(target.port, { ...serverEnv(target), ...env });
    await waitFor(`${base(target)}/health/ready`, 180_000);
    const warmUp = Array.from({ length: WARM_REQUESTS }, (_, i) => target.warmers[i % target.warmers.length]);
    for (const [, p] of reads) await blast(base(target), warmUp, get(p));
  }
  log(`servers restarted: ${why}`);
}

let callNumber = 0;
/**
 * Measures one call on every database, one straight after the other; the order is swapped from one
 * call to the next so that neither database always runs first (a warmer or cooler machine).
 */
async function compare(title, run, { unlike = false, servers = true } = {}) {
  const order = callNumber++ % 2 === 0 ? targets : [...targets].reverse();
  const row = { title, by: new Map(), unlike, gc: new Map() };
  for (const target of order) {
    const before = servers ? await collectionsOf(target) : undefined;
    row.by.set(target, await run(target));
    const gc = servers ? collectedSince(before, await collectionsOf(target)) : undefined;
    if (gc) row.gc.set(target, gc);
    log(
      `${title} on ${target.name}: ${describe(row.by.get(target))}` +
        (gc
          ? `; the server's collections: ${gc.major} major (${gc.majorMs.toFixed(0)} ms), ${gc.minor} minor (${gc.minorMs.toFixed(0)} ms)`
          : ''),
    );
  }
  results.push(row);
}

/**
 * The garbage collections of a database's server so far, from its Prometheus metrics (prom-client's
 * nodejs_gc_duration_seconds by kind); undefined when the metrics cannot be read. A collection that
 * stops the server for 10–20 ms delays every request in flight and those that arrive meanwhile: at
 * 4 000/s, about 80 requests, nearly a p99's worth of a pass of 10 000.
 */
async function collectionsOf(target) {
  try {
    const text = await (await fetch(`${base(target)}/metrics`)).text();
    const kinds = {};
    for (const [, part, kind, value] of text.matchAll(
      /^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)$/gm,
    ))
      (kinds[kind] ??= { count: 0, seconds: 0 })[part === 'sum' ? 'seconds' : 'count'] = Number(value);
    return kinds;
  } catch {
    return undefined;
  }
}
/** Major and minor collections between two readings of collectionsOf. */
function collectedSince(before, after) {
  if (!before || !after) return undefined;
  const of = (kind) => ({
    count: (after[kind]?.count ?? 0) - (before[kind]?.count ?? 0),
    ms: 1000 * ((after[kind]?.seconds ?? 0) - (before[kind]?.seconds ?? 0)),
  });
  const [major, minor] = [of('major'), of('minor')];
  return { major: major.count, majorMs: major.ms, minor: minor.count, minorMs: minor.ms };
}

/**
 * A read measured as compare() does, next to the bare Fastify: a bare pass straight before and after
 * it, the higher of the two kept as its reference (printShares).
 */
async function compareRead(title, run, options) {
  const before = await bareRate();
  await compare(title, run, options);
  adjacentBare.set(title, Math.max(before, await bareRate()));
}

const milliseconds = (v) => (Number.isNaN(v) ? '—' : v < 1 ? '< 1 ms' : `${v.toFixed(v < 10 ? 1 : 0)} ms`);
const describe = (r) =>
  `${r.rate.toFixed(0)}/s, ${milliseconds(r.p50)} / ${milliseconds(r.p99)}${r.failed ? `, ${r.failed} failed` : ''}`;

function printReport() {
  const header = targets.map((t) => `${t.name} (${t.total}): rate, p50 / p99`);
  const ratio = targets.length > 1;
  console.log(
    `\n${targets.map((t) => `${t.name}: ${t.total ?? '?'} customers, ${measuredOf(t)}`).join('; ')}; ` +
      `${SKIP_CUSTOMERS ? `the million's measured customers after the first ${SKIP_CUSTOMERS}; ` : ''}` +
      `${CONNECTIONS} connections; each call on ${targets.map((t) => t.name).join(' and ')} one after the other.\n`,
  );
  console.log(
    `| call | ${header.join(' | ')} |${ratio ? ` p99 ratio (${million.name} / ${targets[0].name}) |` : ''} load (1 min) |`,
  );
  console.log(`| --- | ${header.map(() => '---').join(' | ')} |${ratio ? ' --- |' : ''} --- |`);
  for (const { title, by, unlike } of results) {
    const cells = targets.map((t) => (by.has(t) ? describe(by.get(t)) : '—'));
    const [small, large] = [by.get(targets[0]), by.get(million)];
    const p99Ratio =
      ratio && small && large
        ? ` ${(large.p99 / small.p99).toFixed(1)}${unlike ? ' (not alike)' : ''} |`
        : ratio
          ? ' — |'
          : '';
    const loads = targets.filter((t) => by.has(t)).map((t) => by.get(t).load);
    console.log(`| ${title} | ${cells.join(' | ')} |${p99Ratio} ${loads.join(', ')} |`);
  }
  printCollections();
  printShares();
  printRounds();
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
}

/** The servers' garbage collections during each call, by database. */
function printCollections() {
  const rows = results.filter((r) => r.gc?.size);
  if (rows.length === 0) return;
  console.log(`\nThe servers' garbage collections during each call (from their /metrics): major, minor.\n`);
  console.log(`| call | ${targets.map((t) => t.name).join(' | ')} |`);
  console.log(`| --- | ${targets.map(() => '---').join(' | ')} |`);
  const cell = (gc) =>
    gc
      ? `${gc.major} major (${gc.majorMs.toFixed(0)} ms), ${gc.minor} minor (${gc.minorMs.toFixed(0)} ms)`
      : '—';
  for (const { title, gc } of rows)
    console.log(`| ${title} | ${targets.map((t) => cell(gc.get(t))).join(' | ')} |`);
}

/**
 * Issue 21 §5's goals at a million: each read's rate as a share of the bare Fastify's rate next to
 * it (bareRate: the higher of straight before and after), and of the highest bare rate of the whole
 * run (any pass, on either side: the strictest reference); uncached reads against 15 %, cached
 * reads against 35 %.
 */
function printShares() {
  const best = highestBareRate();
  if (!Number.isFinite(best)) return;
  const reads = results.filter((r) => adjacentBare.has(r.title));
  console.log(
    `\nShares at ${million.name}: of the bare Fastify next to each call, and of its highest rate in this run (${best.toFixed(0)}/s):\n`,
  );
  console.log('| call | rate | bare Fastify next to it | share of it | share of the highest | goal |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const { title, by } of reads) {
    const m = by.get(million);
    if (!m) continue;
    const goal = shareGoal(title);
    const next = adjacentBare.get(title);
    const share = (100 * m.rate) / next;
    const strict = (100 * m.rate) / best;
    console.log(
      `| ${title} | ${m.rate.toFixed(0)}/s | ${next.toFixed(0)}/s | ${share.toFixed(1)} % | ${strict.toFixed(1)} % | ${goal} %: ${shareVerdict(share, strict, goal)} |`,
    );
  }
}

/** The highest rate of any bare Fastify pass of the run, on either side (the strictest reference). */
const highestBareRate = () =>
  Math.max(
    ...results
      .filter((r) => r.title.startsWith('bare Fastify'))
      .flatMap((r) => [...r.by.values()].map((m) => m.rate)),
    ...adjacentBare.values(),
  );
/** Issue 21 §5's share of the bare Fastify for a read: 35 % cached, 15 % uncached. */
const shareGoal = (title) => (title.includes('cached') ? 35 : 15);
const shareVerdict = (share, strict, goal) =>
  strict >= goal ? 'met' : share >= goal ? 'met next to it, not of the highest' : 'not met';

/** A call's title in round `round` (from 0): " (round 2 of 3)" after it when there are rounds. */
const roundTitle = (title, round) => (ROUNDS > 1 ? `${title} (round ${round + 1} of ${ROUNDS})` : title);
/** The round mark roundTitle adds, at the end of a row's title. */
const roundPattern = / \(round \d+ of \d+\)$/;
/** The middle value (the mean of the two middle ones for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * With BENCH_ROUNDS > 1: each call's figures round by round and their median, which is what the
 * goals are judged by (one round's p99 ratio can be a spell of the machine in one of its two passes;
 * the bare Fastify's row, the same server on both sides, shows how far that goes in this run).
 */
function printRounds() {
  if (ROUNDS < 2) return;
  const calls = new Map();
  for (const row of results) {
    const match = roundPattern.exec(row.title);
    if (!match) continue;
    const call = row.title.slice(0, match.index);
    if (!calls.has(call)) calls.set(call, []);
    calls.get(call).push(row);
  }
  const best = highestBareRate();
  const list = (values, digits) => values.map((v) => v.toFixed(digits)).join(', ');
  const ratio = targets.length > 1;
  console.log(
    `\nRound by round (${ROUNDS} rounds, ${million.name}'s customers of each round its own), and the median the goals are judged by:\n`,
  );
  console.log(
    `| call |${ratio ? ' p99 ratio by round | median | goal 1.5 |' : ''} share of the bare Fastify next to it by round | median | share of the highest | median | goal |`,
  );
  console.log(`|---|${ratio ? '---|---|---|' : ''}---|---|---|---|---|`);
  for (const [call, rows] of calls) {
    const ratios = rows
      .filter((r) => r.by.has(million) && r.by.has(targets[0]))
      .map((r) => r.by.get(million).p99 / r.by.get(targets[0]).p99);
    const unlike = rows.some((r) => r.unlike);
    const ratioCells = ratio
      ? ` ${list(ratios, 1)} | ${median(ratios).toFixed(1)} | ${unlike ? 'not alike' : median(ratios) <= 1.5 ? 'met' : 'not met'} |`
      : '';
    const read = rows.filter((r) => adjacentBare.has(r.title) && r.by.has(million));
    const shares = read.map((r) => (100 * r.by.get(million).rate) / adjacentBare.get(r.title));
    const stricts = read.map((r) => (100 * r.by.get(million).rate) / best);
    const goal = shareGoal(call);
    const shareCells =
      read.length > 0
        ? ` ${list(shares, 1)} % | ${median(shares).toFixed(1)} % | ${list(stricts, 1)} % | ${median(stricts).toFixed(1)} % | ${goal} %: ${shareVerdict(median(shares), median(stricts), goal)} |`
        : ' — | — | — | — | — |';
    console.log(`| ${call} |${ratioCells}${shareCells}`);
  }
}

/**
 * What the members' reads use: every index scanned and every table visited in the plans of
 * memberReads' three statements (member-reads-sql.mjs, taken from the built server) for one customer.
 * An index-only scan names its table too, which it does not read (decision 0062): only its index counts.
 */
async function indexesOfMemberReads(target) {
  const names = new Set();
  const visit = (node) => {
    if (node['Index Name']) names.add(node['Index Name']);
    if (node['Relation Name'] && !node['Node Type'].startsWith('Index Only'))
      names.add(node['Relation Name']);
    for (const child of node.Plans ?? []) visit(child);
  };
  // Imported here, not at the top: it loads the built server's modules, and the password hash's cost
  // is fixed when they load (NODE_ENV=test, set in step 2, makes the measured customers' hashes cheap).
  const { tierDetailsStatement, historyPageStatement, expiryForecastStatement } =
    await import('./member-reads-sql.mjs');
  for (const statement of [tierDetailsStatement, historyPageStatement, expiryForecastStatement]) {
    const { rows } = await target.db.query(
      `explain (format json) ${statement.text}`,
      statement.values([target.customers[0].id]),
    );
    visit(rows[0]['QUERY PLAN'][0].Plan);
  }
  return names;
}

/**
 * Reads the million's tables and indexes into memory (pg_prewarm), as a server with the memory for
 * its working set holds them (docs/operations.md#sizing; the small database always is): freshly
 * generated, much of it was on disk only, and a first pass of history pages read it from there (519/s
 * for 2 000 customers cold, then 2 892 and 3 694/s, 29 Nov 2026). What is read is chosen in three
 * rounds, smallest first in each: every table and index outside the ledger (the customers, accounts,
 * sessions, consents that every call reads); the ledger's indexes that the members' reads use
 * (indexesOfMemberReads); then the rest of the ledger (its table, which those index-only reads do not
 * read, and the indexes only writes and the expiry job use).
 *   - Into PostgreSQL's own buffers (pg_prewarm 'buffer'), as far as they fit in nine tenths of them:
 *     the first two rounds. A page the buffers miss is copied from the page cache at every read, and
 *     at a million those indexes (9.5 GB) cost PostgreSQL 120 µs of CPU per history call held in 14 GB
 *     of buffers against 293 µs with 6 GB (performance.md#cpu-per-call-million; until 2 Dec 2026 every
 *     relation went to the page cache only).
 *   - Into the operating system's page cache (pg_prewarm 'read'): the rest, as far as it fits in the
 *     free memory (less room for the processes, below), read biggest first (the page cache drops
 *     first what was read longest ago). A kernel that pages out what was idle for a minute (DAMON on
 *     this machine, decision 0057) undoes it for whatever the calls do not touch soon after; buffers
 *     on huge pages are not paged out.
 * Reports how much went where and how many of PostgreSQL's buffers hold a page afterwards
 * (pg_buffercache). BENCH_PREWARM=0 skips it.
 */
async function prewarm(target) {
  if (process.env.BENCH_PREWARM === '0') return log(`${target.name}: not read into memory (BENCH_PREWARM=0)`);
  try {
    await target.db.query('create extension if not exists pg_prewarm');
  } catch (error) {
    return log(`${target.name}: not read into memory (pg_prewarm: ${error.message})`);
  }
  const { rows } = await target.db.query(
    `select c.oid::regclass::text as name, pg_relation_size(c.oid)::int8 as bytes from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'i') order by bytes desc`,
  );
  const { rows: ledger } = await target.db.query(
    `select 'loyalty_events' as name union all
     select indexrelid::regclass::text from pg_index where indrelid = 'loyalty_events'::regclass`,
  );
  const ofLedger = new Set(ledger.map((r) => r.name));
  const memberReads = await indexesOfMemberReads(target);
  const round = (relation) => (!ofLedger.has(relation.name) ? 0 : memberReads.has(relation.name) ? 1 : 2);
  // Smallest first within each round (30 Nov 2026: largest first, 15.4 GB fitted and the customers,
  // accounts and sessions were left out; smallest first alone left the history's index out).
  const ordered = [...rows].sort((a, b) => round(a) - round(b) || Number(a.bytes) - Number(b.bytes));
  const ofMembers = ordered.filter((r) => round(r) < 2);
  const t0 = performance.now();
  let bufferRoom = 0.9 * bufferBytes;
  const buffered = [];
  const notBuffered = [];
  for (const relation of ofMembers) {
    if (Number(relation.bytes) > bufferRoom) {
      notBuffered.push(relation.name);
      continue;
    }
    await target.db.query(`select pg_prewarm($1::regclass, 'buffer')`, [relation.name]);
    buffered.push(relation);
    bufferRoom -= Number(relation.bytes);
  }
  // The free memory less 2.5 GB for the processes (two servers, this script, PostgreSQL's backends:
  // every process on the machine together held at most 2.3 GB in run H of 30 Nov 2026), and less the
  // buffers where they are not on huge pages and not yet filled: those count as free until PostgreSQL
  // touches them, and then take their room from the page cache.
  const bufferedBytes = buffered.reduce((sum, r) => sum + Number(r.bytes), 0);
  let room = freemem() - 2.5 * 2 ** 30 - (buffersOnHugePages ? 0 : Math.max(0, bufferBytes - bufferedBytes));
  const chosen = [];
  const left = [];
  for (const relation of ordered.filter((r) => !buffered.includes(r))) {
    if (Number(relation.bytes) > room) left.push(relation.name);
    else {
      chosen.push(relation);
      room -= Number(relation.bytes);
    }
  }
  chosen.sort((a, b) => Number(b.bytes) - Number(a.bytes));
  let read = 0;
  for (const { name, bytes } of chosen) {
    await target.db.query(`select pg_prewarm($1::regclass, 'read')`, [name]);
    read += Number(bytes);
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  const inUse = await buffersInUse(target);
  const ledgerIndexes = (list) =>
    list
      .map((r) => r.name)
      .filter((n) => ofLedger.has(n))
      .join(', ') || 'none of the ledger';
  const summary =
    `${target.name}'s tables and indexes read into memory (pg_prewarm) in ${seconds} s: ` +
    `${sizeText(bufferedBytes)} into PostgreSQL's buffers (${buffered.filter((r) => !ofLedger.has(r.name)).length} tables and indexes outside the ledger, and the ledger's ${ledgerIndexes(buffered)}), ` +
    `${sizeText(read)} into the page cache (${chosen.map((r) => r.name).join(', ') || 'nothing'}); ` +
    `left on disk: ${left.join(', ') || 'nothing'}; ` +
    `PostgreSQL's buffers holding a page: ${inUse === undefined ? 'unknown (no pg_buffercache)' : `${sizeText(inUse)} of ${sizeText(bufferBytes)}`}.`;
  log(summary);
  notes.push(summary);
  // Decision 0074: the buffers the operator's guide sizes hold all of them.
  if (notBuffered.length > 0) {
    const needed = ofMembers.reduce((sum, r) => sum + Number(r.bytes), 0);
    noteSetting(
      `Not in PostgreSQL's buffers: ${notBuffered.join(', ')}`,
      `the members' reads use ${sizeText(needed)} of tables and indexes, more than nine tenths of ${sizeText(bufferBytes)} of buffers hold (docs/operations.md#sizing, decision 0074): a read copies those pages from the page cache`,
    );
  }
}

/** Bytes of PostgreSQL's buffers that hold a page (pg_buffercache), or undefined without it. */
async function buffersInUse(target) {
  try {
    await target.db.query('create extension if not exists pg_buffercache');
    const { rows } = await target.db.query(
      `select count(*)::int8 * current_setting('block_size')::int8 as bytes
       from pg_buffercache where relfilenode is not null`,
    );
    return Number(rows[0].bytes);
  } catch {
    return undefined;
  }
}

let expiryJob;
function stopAll() {
  for (const target of targets) target.app?.kill('SIGTERM');
  baseline.kill('SIGTERM');
  expiryJob?.kill('SIGTERM');
}
// An outer time-out or Ctrl-C: print what was measured, then stop everything this script started.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: printing what was measured so far`);
    notes.push(`Stopped by ${signal} after ${((Date.now() - started) / 1000).toFixed(0)} s.`);
    printReport();
    stopAll();
    process.exit(130);
  });
}

const auth = (c, more = {}) => ({ headers: { authorization: `Bearer ${c.access}`, ...more } });
const fetchGet = (target, p) => (c) => fetch(base(target) + p(c), auth(c));

try {
  await waitFor(`http://127.0.0.1:${baselinePort}/hello`, 30_000);
  for (const target of targets) await waitFor(`${base(target)}/health/ready`, 180_000);

  // 1. Sign-in at the production hash cost.
  if (SIGN_INS > 0 && !EXPIRY_ONLY) {
    for (const target of targets) target.signInsFrom = (await target.db.query('select now() as t')).rows[0].t;
    await compare('sign-in (production hash, whole flow, 4 at a time)', async (target) => {
      const latencies = [];
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < SIGN_INS) {
            const c = target.signInCustomers[next++ % target.signInCustomers.length];
            const t = performance.now();
            await httpSignIn(base(target), c.email, BENCH_PASSWORD);
            latencies.push(performance.now() - t);
          }
        }),
      );
      return measured(latencies, (performance.now() - t0) / 1000, 0);
    });
    // What those sign-ins left on their customers' pages goes again: on the small database they are
    // the 8 measured customers, and 100 sign-ins gave each of them 12 more sessions and sign-in events
    // than a customer has at a million, so its sessions list and security activity were not alike.
    for (const target of targets) {
      const ids = target.signInCustomers.map((c) => c.id);
      const { rowCount: sessions } = await target.db.query(
        `delete from session_devices where customer_id = any($1) and signed_in_at >= $2`,
        [ids, target.signInsFrom],
      );
      const { rowCount: events } = await target.db.query(
        `delete from security_events where customer_id = any($1) and occurred_at >= $2`,
        [ids, target.signInsFrom],
      );
      log(`${target.name}: the sign-ins' ${sessions} sessions and ${events} security events removed`);
    }
  }

  // 2. Tokens for everyone measured, then fresh servers.
  for (const target of targets) {
    const everyone = [...target.customers, ...target.warmers];
    await giveCheapPasswords(target.db, everyone);
    await signInAll(base(target), everyone, CONNECTIONS);
    log(
      `${target.name}: ${target.customers.length} customers and ${target.warmers.length} to warm up signed in`,
    );
  }
  // The reads are compared without the per-instance read caches (READ_CACHE_CUSTOMERS=0) on both
  // databases: at eight customers the caches would answer every read after the first eight, and the
  // ratio would be of a database read to a cache hit, not of a million to eight. (At a million each
  // customer is read once per pass anyway.) The cached reads and the writes follow with the caches on.
  // The reads under the expiry job too: each of them is a database read, as the job's work is.
  await restartServers({ READ_CACHE_CUSTOMERS: '0' }, 'read caches off');
  // After the restart and its warm-up (40–70 s), straight before the calls: a page cache that pages
  // out what was idle for a minute (DAMON here, decision 0057) had dropped much of it before.
  await prewarm(million);

  // 3. Every call, by autocannon (the load generator must not be the bottleneck: a fetch loop is).
  if (!EXPIRY_ONLY) {
    // The bare server warms up first (JIT): a cold first pass ran at half its later rate (27 Nov),
    // which flattered every share of it; the app's servers are warmed at each restart (restartServers).
    await bareRate();
    const [, [, tierDetails]] = reads;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round on customers of its own (at a million): their tokens and their loyalty reads are
      // first ones again. Its rows are named by the round; printRounds takes each call's median.
      const named = (title) => roundTitle(title, round);
      const listOf = (target) => target.lists[round];
      await compare(
        named('bare Fastify hello-world (same run)'),
        (target) => blast(`http://127.0.0.1:${baselinePort}`, listOf(target), () => ({ path: '/hello' })),
        { servers: false },
      );
      // Each token's first call on a restarted instance checks its RS256 signature (about 60 µs of
      // CPU here); later calls find it among the verified tokens. At a million that is 10 000 checks,
      // at eight 16 (in the first round; the small database's rounds share their sessions): a row of
      // its own, not alike, so that the reads below compare the databases' work.
      await compareRead(
        named('login status, first call of each token on the instance (RS256 check)'),
        (target) => blast(base(target), listOf(target), get(reads[0][1])),
        { unlike: true },
      );
      // A customer's first loyalty read (the tier details, the first of them here) applies what fell
      // due since the nightly run (a write; about one customer in fifteen at a million, none at eight
      // after the first eight reads): its p99s are not alike. Again, with nothing due any more, the
      // two databases read alike.
      for (const [title, p] of reads)
        await compareRead(named(title), (target) => blast(base(target), listOf(target), get(p)), {
          unlike: p === tierDetails,
        });
      for (const [title, p] of reads.slice(1, 3))
        await compareRead(named(`${title}, again (nothing due any more)`), (target) =>
          blast(base(target), listOf(target), get(p)),
        );
      // The bare Fastify once more: its rate moves with the machine, and the shares below are of the
      // highest of its passes (the strictest reference).
      await compare(
        named('bare Fastify hello-world, again after the reads'),
        (target) => blast(`http://127.0.0.1:${baselinePort}`, listOf(target), () => ({ path: '/hello' })),
        { servers: false },
      );
    }
    await restartServers({}, 'read caches on (the default)');
    // The first 500 customers of a round again and again: what the per-instance read cache answers,
    // once it holds them all (a first pass, not measured, fills it: at a million its 500 first reads
    // would otherwise be the pass's slowest 5 %, against 8 at eight). In rounds too, judged by the
    // median (until 2 Dec 2026 one pass each, straight after the restart: the cached login status
    // came out at 24.6 % and 29.7 % of the highest bare rate in runs Q and R, while a one-off probe
    // on 3 000 customers had it at 9 381/s in one pass and 15 848–16 497/s in the next two).
    for (let round = 0; round < ROUNDS; round++)
      for (const [title, p] of reads.slice(0, 2))
        await compareRead(
          roundTitle(`${title}, cached (500 customers of the round again and again)`, round),
          async (target) => {
            const hot = target.roundCustomers[round].slice(0, 500);
            await blast(base(target), hot, get(p));
            const hotList = Array.from({ length: PASS_REQUESTS }, (_, i) => hot[i % hot.length]);
            return blast(base(target), hotList, get(p));
          },
        );
    // The writes in rounds too, each round's on that round's customers (at a million: the customers
    // whose reads it measured, with the read caches now on).
    const runId = Date.now().toString(36);
    const write = (c) => ({
      authorization: `Bearer ${c.access}`,
      'content-type': 'application/json',
      'x-csrf-token': c.csrf,
    });
    const cities = ['Koeln', 'Bonn', 'Essen', 'Kiel'];
    /** Every customer of `list` refreshes once, one customer at a time per connection (a refresh token is used once). */
    const refreshPass = async (target, list) =>
      passResult(
        await pass(
          list,
          async (c) => {
            const res = await fetch(`${base(target)}/auth/realms/customer/protocol/openid-connect/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({
                grant_type: 'refresh_token',
                refresh_token: c.refresh,
                client_id: 'portal-client',
              }),
            });
            if (res.ok) {
              const body = await res.clone().json();
              c.access = body.access_token;
              c.refresh = body.refresh_token ?? c.refresh;
            }
            return res;
          },
          true,
          Math.min(CONNECTIONS, target.customers.length),
        ),
      );
    for (let round = 0; round < ROUNDS; round++) {
      const named = (title) => roundTitle(title, round);
      // The anti-forgery token and the profile the PUT sends back (not measured).
      for (const target of targets) {
        await pass(target.roundCustomers[round], async (c) => {
          const res = await fetch(`${base(target)}/api/customer/cuda/customer/personaldata/own`, auth(c));
          c.csrf = res.headers.get('x-csrf-token');
          const body = await res
            .clone()
            .json()
            .catch(() => undefined);
          c.profile = body?.body?.PersonalDataRTO;
          return res;
        });
      }
      let w = 0;
      await compare(named('profile write (PUT personal data)'), (target) =>
        blast(base(target), target.lists[round], (c) => ({
          method: 'PUT',
          path: '/api/customer/cuda/customer/personaldata/own',
          headers: write(c),
          body: JSON.stringify({ ...c.profile, addressCity: cities[w++ % 4] }),
        })),
      );
      await compare(named('consent write (PATCH)'), (target) =>
        blast(base(target), target.lists[round], (c) => ({
          method: 'PATCH',
          path: `/api/customer/consents/v1/customers/${c.id}/consents/marketing-sms-Sm3q`,
          headers: write(c),
          body: JSON.stringify({ legalEntityId: c.legal_entity_id, granted: w++ % 2 === 0 }),
        })),
      );
      const partnerCode = (target) =>
        blast(base(target), target.lists[round], (c) => ({
          method: 'POST',
          path: `/api/customer/loyalty-service/customer/${c.id}/partner-code/velovia-bike-rides`,
          headers: write(c),
        }));
      // The first pass makes a code for every customer at a million, but only 8 on the small database
      // (the rest answer the code made): its p99s are not alike. The second pass answers made codes on both.
      await compare(
        named('partner code (POST), first pass: made at a million, mostly answered at eight'),
        partnerCode,
        {
          unlike: true,
        },
      );
      await compare(named('partner code (POST), again: every code made'), partnerCode);
      await compare(named('refresh (token endpoint, one customer at a time per connection)'), (target) =>
        refreshPass(target, target.lists[round]),
      );
    }
    // The event batches once, after the rounds, on the first round's customers: each pass records
    // 10 000 events, which at eight all fall on the same 8 customers, and the points of their
    // qualifying window are summed over ever more entries. With passes in every round, the small
    // database's batches of 8 ran at 19/s in the first round and 8/s in the third, while the million's
    // held 35–43/s (1 Dec 2026).
    // The rental system sends its batches a few at a time (the batch lane admits a few waiting ones).
    /** Batches of `size` events from the rental system, 4 at a time; `offset` keeps source ids apart. */
    const eventBatches = (size, offset) => async (target) => {
      const tokenRes = await fetch(`${base(target)}/auth/realms/customer/protocol/openid-connect/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`rental-system:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
      });
      const serviceToken = (await tokenRes.json()).access_token;
      const batches = [];
      for (let i = 0; i < target.list.length; i += size)
        batches.push(target.list.slice(i, i + size).map((c, k) => ({ c, n: offset + i + k })));
      return passResult(
        await pass(
          batches,
          (batch) =>
            fetch(`${base(target)}/api/internal/loyalty/events`, {
              method: 'POST',
              headers: { authorization: `Bearer ${serviceToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                events: batch.map(({ c, n }) => ({
                  sourceId: `bench-${runId}-${n}`,
                  customerId: c.id,
                  type: 'rental-completed',
                  points: 5,
                })),
              }),
            }),
          false,
          4,
        ),
      );
    };
    // 50 events fall on 50 customers at a million but on the same 8 (about 6 each) at eight: the
    // work per batch differs, so its p99s are not alike. Nor are those of 8 events of 8 different
    // customers: each pass records 10 000 events, at eight on the same 8 customers, whose qualifying
    // window is summed over 1 250 more entries each by the pass's end (and over the 50-event pass's
    // too, which ran first until 1 Dec 2026: 15–20/s at eight against 34–43/s at a million).
    await compare(
      'event batch (8 events of 8 different customers, 4 at a time)',
      eventBatches(8, 1_000_000),
      {
        unlike: true,
      },
    );
    await compare('event batch (50 events each, 4 at a time)', eventBatches(50, 0), {
      unlike: true,
    });
  }

  // 4. The expiry job on the million with reads running.
  if (WITH_EXPIRY) await expiryUnderReads(million);

  printReport();
} finally {
  stopAll();
  for (const target of targets) await target.db.end();
}

/**
 * Step 4: history reads of EXPIRY_READERS customers alone, then during the expiry job, in windows of
 * one pass each; the comparison is printed as soon as the reads stop, before waiting for the job.
 */
async function expiryUnderReads(target) {
  const dueNow = async () =>
    (
      await target.db.query(
        `select count(*)::int as lots, count(distinct customer_id)::int as customers
         from loyalty_events where remaining_points > 0 and expires_at <= now()`,
      )
    ).rows[0];
  const due = await dueNow();
  log(`due before the job: ${due.lots} lots of ${due.customers} customers`);
  const readers = target.customers.slice(0, EXPIRY_READERS);
  const pages = ['history?page_index=2&page_size=20', 'history?page_index=0&page_size=10'];
  let round = 0;
  const readPass = () => {
    const page = pages[round++ % 2];
    return pass(
      readers,
      fetchGet(target, (c) => `/api/customer/loyalty-service/customer/${c.id}/${page}`),
    );
  };
  const aggregate = (passes) =>
    measured(
      passes.flatMap((r) => r.latencies),
      passes.reduce((s, r) => s + r.seconds, 0),
      passes.reduce((s, r) => s + r.failed, 0),
    );

  // With the read caches off (28 Nov; before, the windows were answered partly from the cache of
  // pages): every read below asks PostgreSQL, which the job keeps busy. After the cached passes and
  // the writes of a whole run, the servers restart so.
  if (!EXPIRY_ONLY) await restartServers({ READ_CACHE_CUSTOMERS: '0' }, 'read caches off for the expiry job');
  // The same two pages alternately, as during the job; the first pass is not measured.
  await readPass();
  const before = aggregate([await readPass(), await readPass()]);
  results.push({ title: 'history pages, before the expiry job', by: new Map([[target, before]]) });
  log(`reads before the job: ${describe(before)}`);

  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  let output;
  let failure;
  const job = new Promise((resolve) => {
    expiryJob = stopOnExit(
      spawn(process.execPath, ['apps/server/dist/cli/loyalty.js', 'expire'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: target.url, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    let out = '';
    expiryJob.stdout.on('data', (chunk) => (out += chunk));
    expiryJob.on('exit', (status) => {
      if (status === 0) output = out.trim();
      else failure = `exit ${status}`;
      resolve();
    });
  });
  let running = true;
  void job.then(() => (running = false));

  const windows = [];
  // At least one window, even when the job is over first (a small database).
  while (windows.length === 0 || (running && elapsed() < EXPIRY_READ_SECONDS)) {
    const r = await readPass();
    windows.push(r);
    const now = passResult(r);
    log(
      `reads during the job, window ${windows.length} (${elapsed().toFixed(0)} s in): ${describe(now)}, ` +
        `${((100 * now.rate) / before.rate).toFixed(0)} % of before`,
    );
  }
  const readSeconds = elapsed();
  const during = aggregate(windows);
  results.push({ title: 'history pages, during the expiry job', by: new Map([[target, during]]) });
  const share = `${((100 * during.rate) / before.rate).toFixed(0)} %`;
  const summary =
    `Reads during the expiry job: ${during.rate.toFixed(0)}/s against ${before.rate.toFixed(0)}/s before, ` +
    `${share} (goal: at least 50 %), over the job's first ${readSeconds.toFixed(0)} s` +
    `${running ? ' (the job was still running)' : ' (the whole job)'}; p99 ${milliseconds(during.p99)} against ${milliseconds(before.p99)}.`;
  notes.push(summary);
  // Printed now: an outer time-out while the job goes on must not lose it.
  console.log(summary);

  const progress = setInterval(async () => {
    const left = await dueNow().catch(() => undefined);
    if (left)
      log(
        `expiry job, ${elapsed().toFixed(0)} s in: ${left.lots} lots of ${left.customers} customers still due`,
      );
  }, 30_000);
  await job;
  clearInterval(progress);
  const seconds = elapsed();
  const result = failure ? `failed (${failure})` : output.split('\n').join(' ');
  notes.push(
    `Expiry job: ${seconds.toFixed(0)} s for ${due.lots} lots of ${due.customers} customers ` +
      `(${(due.customers / seconds).toFixed(0)} customers/s): ${result}`,
  );
  log(notes.at(-1));
}
