#!/usr/bin/env node
// npm run bench:fleet: what a setting of the load balancer costs (issue 21 §3, §6). One fleet
// (scripts/fleet/fleet.mjs: three instances, PgBouncer, PostgreSQL, read caches off so that every read
// asks the database) and two HAProxy processes of the fleet's configuration in front of the same
// instances, differing in one setting only. BENCH_FLEET_COMPARE chooses which:
//   - "connections" (the default): "close", `option http-server-close`, a new connection to an
//     instance for every request, against "keep-alive", `option http-keep-alive`, connections kept and
//     reused (`http-reuse safe`, HAProxy's default; the recipe);
//   - "logging": "errors only", the log at level notice (failed and 5xx requests, through
//     `option log-separate-errors`), against "every request", a line per request at level info (the
//     recipe), written to a pipe that the script reads.
// BENCH_FLEET_CUSTOMERS (2 000) customers signed in through the fleet; every pass sends
// BENCH_FLEET_REQUESTS (10 000) requests of one call, consecutive requests for different customers,
// over BENCH_FLEET_CONNECTIONS (16) TLS connections to the balancer. The two balancers take turns,
// call by call and round by round (BENCH_FLEET_ROUNDS, 3), the order swapped each time; a pass of
// each first warms both (not measured). Prints each pass, then the median rate and p99 per call and
// balancer as Markdown. Needs `npm run build`; installs haproxy and pgbouncer when missing (root).
import { autocannonPass, passFigures } from './autocannon-pass.mjs';
import { runOnFleet, startFleet } from './fleet/fleet.mjs';
import { httpSignIn } from './http-sign-in.mjs';

const CUSTOMERS = Number(process.env.BENCH_FLEET_CUSTOMERS ?? 2000);
const REQUESTS = Number(process.env.BENCH_FLEET_REQUESTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_FLEET_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_FLEET_ROUNDS ?? 3);
const PASSWORD = 'Bench-Fleet-2026!';

const started = Date.now();
const log = (line) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

/** The fleet's configuration with one connection mode. */
const withMode = (line) => (text) =>
  text
    .replace(/^\s*option http-(server-close|keep-alive)\s*$/m, '')
    .replace(/^defaults\n/m, `defaults\n  ${line}\n`);
/** The fleet's configuration with the log at another level. */
const withLogLevel = (level) => (text) => {
  const line = /^(\s*log stderr format raw local0) info$/m;
  if (!line.test(text)) throw new Error("the fleet's HAProxy configuration no longer logs at info");
  return text.replace(line, `$1 ${level}`);
};

/** The comparisons: two balancers each, the first the baseline; each an edit of the fleet's configuration. */
const comparisons = {
  connections: {
    close: withMode('option http-server-close'),
    'keep-alive': withMode('option http-keep-alive'),
  },
  logging: { 'errors only': withLogLevel('notice'), 'every request': withLogLevel('info') },
};
const COMPARE = process.env.BENCH_FLEET_COMPARE ?? 'connections';
const modes = comparisons[COMPARE];
if (!modes) throw new Error(`BENCH_FLEET_COMPARE: one of ${Object.keys(comparisons).join(', ')}`);

/** The reads measured: a GET with the customer's access token. */
const calls = [
  ['login status', () => '/api/customer/cuda/customer/v2/login/own/status'],
  ['tier details', (c) => `/api/customer/loyalty-service/customer/${c.id}`],
  ['consents', (c) => `/api/customer/consents/v1/customers/${c.id}/consents`],
  ['personal data', () => '/api/customer/cuda/customer/personaldata/own'],
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const fleet = await startFleet({
  instances: 3,
  log,
  // One load generator is one client address; every read asks PostgreSQL (through PgBouncer); the
  // tokens outlast the run (5 minutes in production: the last passes' answers were 401s).
  env: {
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_PER_CUSTOMER: '0',
    READ_CACHE_CUSTOMERS: '0',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  },
});
process.exit((await runOnFleet(fleet, run, { connections: 32 })) ? 0 : 1);

async function run() {
  const balancers = {};
  for (const [name, edit] of Object.entries(modes))
    balancers[name] = await fleet.startBalancer(name.replace(/\W+/g, '-'), edit);
  log(
    `balancers: ${Object.entries(balancers)
      .map(([name, b]) => `${name} ${b.url}`)
      .join(', ')}`,
  );

  const customers = await fleet.createCustomers(CUSTOMERS, PASSWORD);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < customers.length) {
        const customer = customers[next++];
        customer.access = (await httpSignIn(fleet.url, customer.email, PASSWORD)).access_token;
      }
    }),
  );
  log(`${customers.length} customers signed in`);

  const items = Array.from({ length: REQUESTS }, (_, i) => customers[i % customers.length]);
  const pass = async (balancer, [, path]) => {
    const { latencies, seconds, failed } = await autocannonPass(
      balancer.url,
      items,
      (c) => ({ path: path(c), headers: { authorization: `Bearer ${c.access}` } }),
      CONNECTIONS,
    );
    return passFigures(latencies, seconds, failed);
  };

  // Warm-up: every call once through each balancer (the instances' code compiled, every token
  // verified once by each instance).
  for (const call of calls) for (const balancer of Object.values(balancers)) await pass(balancer, call);
  log('warmed up');

  const results = new Map(); // call → mode → [{ rate, p99, failed }]
  let turn = 0;
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const call of calls) {
      const order = Object.keys(balancers);
      if (turn++ % 2 === 1) order.reverse();
      for (const mode of order) {
        const measured = await pass(balancers[mode], call);
        const byMode = results.get(call[0]) ?? new Map();
        results.set(call[0], byMode);
        byMode.set(mode, [...(byMode.get(mode) ?? []), measured]);
        log(
          `round ${round}, ${call[0]} through ${mode}: ${measured.rate.toFixed(0)}/s, p99 ${measured.p99.toFixed(1)} ms` +
            (measured.failed ? `, ${measured.failed} failed` : ''),
        );
      }
    }
  }

  const names = Object.keys(modes);
  console.log(
    `\n${customers.length} customers, ${REQUESTS} requests per pass over ${CONNECTIONS} TLS connections, ` +
      `${ROUNDS} rounds; medians of the rounds; three instances, read caches off.\n`,
  );
  console.log(`| call | ${names.map((n) => `${n}: rate, p99`).join(' | ')} | ${names[1]} / ${names[0]} |`);
  console.log(`| --- | ${names.map(() => '---').join(' | ')} | --- |`);
  for (const [call, byMode] of results) {
    const cells = names.map((n) => {
      const runs = byMode.get(n);
      const failed = runs.reduce((sum, r) => sum + r.failed, 0);
      return `${median(runs.map((r) => r.rate)).toFixed(0)}/s, ${median(runs.map((r) => r.p99)).toFixed(1)} ms${failed ? `, ${failed} failed` : ''}`;
    });
    const ratio =
      median(byMode.get(names[1]).map((r) => r.rate)) / median(byMode.get(names[0]).map((r) => r.rate));
    console.log(`| ${call} | ${cells.join(' | ')} | ${ratio.toFixed(2)} |`);
  }
}
