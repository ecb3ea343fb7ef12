#!/usr/bin/env node
// npm run bench:floor: what a call answered by one database read can reach on this machine, next to a
// bare Fastify hello-world in the same process and run (issue 21 §5's reference). A server of its own
// (bench-floor-server.mjs) answers customers' rows by id from BENCH_DATABASE_URL (default the
// million of `npm run bench:generate`): one statement per request, and one per turn of the event
// loop for all requests of the turn. Each pass is 10 000 requests (BENCH_PASS_REQUESTS) over as many
// different customers, 16 connections, as bench:million; BENCH_ROUNDS (3) rounds, the routes alternating.
// Two more routes send the server's own loyalty statement for a history page and an expiry forecast
// (the reads of a turn together, as the server does), with nothing around it.
// Prints each pass's rate and p99, and each read's rate as a share of the hello-world's next to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { autocannonPass } from './autocannon-pass.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million';
const PASS = Number(process.env.BENCH_PASS_REQUESTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const POOL_SIZE = 20; // bench:million's DATABASE_POOL_SIZE
const port = 19000 + Math.floor(Math.random() * 1000);

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const { rows } = await db.query('select id from customers order by hashtext(id::text) limit $1', [PASS]);
await db.end();
if (rows.length < PASS)
  console.error(`only ${rows.length} customers in ${databaseUrl}: customers repeat within a pass`);
/** The customer of each request of a pass: PASS of them, repeating only when there are fewer. */
const ids = Array.from({ length: PASS }, (_, i) => rows[i % rows.length].id);

const server = spawn(
  process.execPath,
  ['scripts/bench-floor-server.mjs', String(port), databaseUrl, String(POOL_SIZE)],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const stop = () => server.kill('SIGTERM');
process.once('SIGINT', () => (stop(), process.exit(130)));

/** One pass of PASS requests, the i-th for the i-th customer: rate and p99 of the 2xx answers. */
async function pass(route) {
  const { latencies, seconds, failed } = await autocannonPass(
    `http://127.0.0.1:${port}`,
    ids,
    (id) => ({ path: route(id) }),
    CONNECTIONS,
  );
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / seconds,
    p99: latencies[Math.floor(0.99 * (latencies.length - 1))],
    failed,
  };
}

const routes = {
  'bare Fastify hello-world': () => '/hello',
  'one read per request': (id) => `/one/${id}`,
  'reads of a turn together': (id) => `/batched/${id}`,
  "history page: the server's statement, a turn's together": (id) => `/history/${id}`,
  "expiry forecast: the server's statement, a turn's together": (id) => `/forecast/${id}`,
};
try {
  await waitFor(`http://127.0.0.1:${port}/hello`, 30_000);
  // Warm-up: the JIT and every pool connection, never measured.
  for (const route of Object.values(routes)) await pass(route);
  const readTitles = Object.keys(routes).slice(1);
  console.log(
    `| round | ${Object.keys(routes).join(' | ')} | ${readTitles.map((t) => `${t} / hello`).join(' | ')} |`,
  );
  console.log(`| ---: | ${[...Object.keys(routes), ...readTitles].map(() => '---:').join(' | ')} |`);
  for (let round = 1; round <= ROUNDS; round++) {
    const results = [];
    for (const route of Object.values(routes)) results.push(await pass(route));
    if (results.some((r) => r.failed)) throw new Error(`failed requests: ${results.map((r) => r.failed)}`);
    const [hello, ...reads] = results;
    const share = (r) => `${((100 * r.rate) / hello.rate).toFixed(1)} %`;
    console.log(
      `| ${round} | ${results.map((r) => `${r.rate.toFixed(0)}/s, p99 ${r.p99.toFixed(1)} ms`).join(' | ')} | ${reads.map(share).join(' | ')} |`,
    );
  }
} finally {
  stop();
}
