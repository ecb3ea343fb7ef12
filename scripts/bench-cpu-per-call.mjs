#!/usr/bin/env node
// npm run bench:cpu-per-call: how much CPU each process spends on one uncached customer call, read
// from /proc: the built server, PostgreSQL (all its processes) and the load generator (this script,
// autocannon), next to the bare Fastify hello-world in its own process (issue 21 §5). A pass's rate
// on this two-core virtual machine swings by half between passes of the same call (the bare
// Fastify 10 000–40 000/s); the CPU per call moves far less, so this is the figure to judge a change
// to a read's own work by (performance.md#cpu-per-call).
//
// On a database of `npm run bench:generate` (BENCH_DATABASE_URL, default roadpass_million):
//   1. BENCH_TOUCH (10 000) customers of Germany, after the first BENCH_SKIP_CUSTOMERS (0) in
//      bench:million's order, and 200 more to warm up with, get a password hash of the test suites'
//      cost and sign in through the whole authorization-code flow (as bench:million's step 2).
//   2. The server is restarted with the read caches off (READ_CACHE_CUSTOMERS=0), so every read asks
//      PostgreSQL, and warmed: 5 000 of every read for the 200, and 20 000 hello-worlds of the bare.
//   3. Every read, one pass of one request per measured customer, 16 connections: rate, p50, p99,
//      and the CPU time per call of each process, with the machine's idle share. The login status
//      comes first (each token's first call: its RS256 check), the tier details and the history
//      twice (the first loyalty read expires what fell due). The bare Fastify runs first and last.
// PostgreSQL's CPU is read only where it runs on this machine; elsewhere its column says "–".
// Prints Markdown on stdout, progress on stderr.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { autocannonPass, passFigures } from './autocannon-pass.mjs';
import {
  authorizedGet as get,
  benchServerEnv,
  germanCustomers,
  giveCheapPasswords,
  readPaths,
  signInAll,
} from './bench-customers.mjs';
import { spawnBaseline, spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million';
const TOUCH = Number(process.env.BENCH_TOUCH ?? 10_000);
const SKIP = Number(process.env.BENCH_SKIP_CUSTOMERS ?? 0);
const CONNECTIONS = 16;
const WARMERS = 200;
const WARM_REQUESTS = 5000;
const port = 20000 + Math.floor(Math.random() * 1000);
const baselinePort = port + 1000;
const origin = `http://127.0.0.1:${port}`;
const started = Date.now();
const log = (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
// bench:million's measured customers: of Germany, in the order of their ids' hash.
const customers = await germanCustomers(db, TOUCH + WARMERS, SKIP);
if (customers.length < TOUCH + WARMERS)
  throw new Error(
    `${databaseUrl} has ${customers.length} customers of Germany from bench:generate after the first ${SKIP}; ${TOUCH + WARMERS} are needed (BENCH_TOUCH, BENCH_SKIP_CUSTOMERS)`,
  );
const measured = customers.slice(0, TOUCH);
const warmers = customers.slice(TOUCH);

// 1. A cheap password hash (it records its own cost), then every customer signed in.
await giveCheapPasswords(db, customers);
const serverEnv = benchServerEnv(databaseUrl, 'bench-cpu-per-call-secret-0123456789abcdef');
let server = spawnServer(port, serverEnv);
await waitFor(`${origin}/health/ready`, 180_000);
await signInAll(origin, customers, CONNECTIONS);
log(`${customers.length} customers signed in`);
// The new password hashes and sessions are written out now, not by a checkpoint during the passes.
await db.query('checkpoint');

// 2. A fresh server without read caches, warmed up; the bare Fastify warmed up too.
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
server = spawnServer(port, { ...serverEnv, READ_CACHE_CUSTOMERS: '0' });
const baseline = spawnBaseline(baselinePort);
await waitFor(`${origin}/health/ready`, 180_000);
await waitFor(`http://127.0.0.1:${baselinePort}/hello`, 30_000);

const reads = [
  ['login status, each token’s first call', readPaths.loginStatus],
  ['tier details, first loyalty read', readPaths.tierDetails],
  ['history, newest page', readPaths.history],
  ['expiry forecast', readPaths.expiryForecast],
  ['consents', readPaths.consents],
  ['sessions', readPaths.sessions],
  ['security activity', readPaths.securityActivity],
  ['personal data', readPaths.personalData],
  ['login status again', readPaths.loginStatus],
  ['tier details again', readPaths.tierDetails],
  ['history again', readPaths.history],
];
const warmUp = Array.from({ length: WARM_REQUESTS }, (_, i) => warmers[i % warmers.length]);
for (const [, p] of reads) await autocannonPass(origin, warmUp, get(p), CONNECTIONS);
const hello = () => ({ path: '/hello' });
await autocannonPass(`http://127.0.0.1:${baselinePort}`, [...measured, ...measured], hello, CONNECTIONS);
log('server and bare Fastify warmed up');

// 3. CPU time from /proc, in clock ticks (100 per second).
const TICK_MICROSECONDS = 10_000;
/** A process's user and system CPU time in ticks (fields 14 and 15 of /proc/<pid>/stat). */
const ticksOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const local = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(databaseUrl).hostname);
/** PostgreSQL's processes on this machine (backends, writers), by pid: their CPU time in ticks. */
const postgresTicks = () => {
  const ticks = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) ticks.set(pid, ticksOf(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
};
/**
 * PostgreSQL's CPU time between two readings: what each process spent since the first, all of it for
 * one started since. A process that ended in between is not counted (a pool's idle connection closed),
 * rather than its whole time counted against the pass.
 */
const postgresSpent = (before, after) => {
  let sum = 0;
  for (const [pid, ticks] of after) sum += ticks - (before.get(pid) ?? 0);
  return sum;
};
/** The machine's idle and total ticks (/proc/stat's first line; idle includes waiting for I/O). */
const machineTicks = () => {
  const t = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: t[3] + t[4], total: t.reduce((a, b) => a + b, 0) };
};

const rows = [];
async function measure(title, target, pid, build) {
  const s0 = ticksOf(pid);
  const p0 = local ? postgresTicks() : undefined;
  const m0 = machineTicks();
  const own = process.cpuUsage();
  const r = await autocannonPass(target, measured, build, CONNECTIONS);
  const ownUsed = process.cpuUsage(own);
  const m1 = machineTicks();
  const perCall = (ticks) => ((ticks * TICK_MICROSECONDS) / measured.length).toFixed(0);
  const f = passFigures(r.latencies, r.seconds, r.failed);
  const row = {
    title,
    rate: f.rate,
    p50: f.p50,
    p99: f.p99,
    failed: f.failed,
    server: perCall(ticksOf(pid) - s0),
    postgres: p0 ? perCall(postgresSpent(p0, postgresTicks())) : '–',
    load: ((ownUsed.user + ownUsed.system) / measured.length).toFixed(0),
    idle: (100 * (m1.idle - m0.idle)) / (m1.total - m0.total),
  };
  rows.push(row);
  log(`${title}: ${row.rate.toFixed(0)}/s, server ${row.server} µs, PostgreSQL ${row.postgres} µs a call`);
}
const bare = () =>
  measure('bare Fastify (hello-world)', `http://127.0.0.1:${baselinePort}`, baseline.pid, hello);
await bare();
for (const [title, p] of reads) await measure(title, origin, server.pid, get(p));
await bare();
server.kill('SIGTERM');
baseline.kill('SIGTERM');
await db.end();

const highestBare = Math.max(...rows.filter((r) => r.title.startsWith('bare')).map((r) => r.rate));
console.log(`# CPU per call: ${measured.length} customers of ${new URL(databaseUrl).pathname.slice(1)}, read caches off, ${CONNECTIONS} connections

| call | rate | of the highest bare rate | p50 | p99 | failed | server CPU a call | PostgreSQL CPU a call | load generator CPU a call | machine idle |
| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |
${rows
  .map(
    (r) =>
      `| ${r.title} | ${r.rate.toFixed(0)}/s | ${((100 * r.rate) / highestBare).toFixed(1)} % | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.failed} | ${r.server} µs | ${r.postgres} µs | ${r.load} µs | ${r.idle.toFixed(0)} % |`,
  )
  .join('\n')}
`);
