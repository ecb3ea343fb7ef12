#!/usr/bin/env node
// npm run bench:million: every customer call on a database of `npm run bench:generate` — the million,
// or the 8-customer one to compare with (BENCH_DATABASE_URL) — against one built server (production
// settings, PostgreSQL), next to a bare Fastify hello-world in its own process in the same run.
//   1. Sign-in: BENCH_SIGN_INS (100) different customers with the production password hash
//      (N=2^15), the whole authorization-code flow, 4 at a time.
//   2. Tokens for the measured customers: up to BENCH_TOUCH (10 000) customers of Germany get a
//      password hash of the test suites' cost (N=2^12; a hash records its own cost) so that signing
//      them all in takes minutes, not an hour; then the server is restarted, so no read cache holds
//      any of them.
//   3. Every call, one pass over all those customers each (16 connections; consecutive requests are
//      different customers, so each call's run touches every one of them once): p50, p99, rate.
//      Reads are uncached in that pass (the first time each customer is asked); "cached" repeats the
//      login status and the tier details for the first 500 customers right after.
//   4. With BENCH_EXPIRY=1 (or =only, skipping 1 and 3): the expiry job (`npm run loyalty -- expire`) with the tier-details and
//      history reads running meanwhile (their rate compared with step 3's).
// Writes change the database (new cities, consents, partner codes, events, expired lots). Prints Markdown.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million';
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 100);
// BENCH_EXPIRY=only: just the expiry job under reads (2 000 customers signed in for the reads).
const EXPIRY_ONLY = process.env.BENCH_EXPIRY === 'only';
const TOUCH = Number(process.env.BENCH_TOUCH ?? (EXPIRY_ONLY ? 2000 : 10_000));
const CONNECTIONS = 16;
const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const secret = 'bench-million-secret-0123456789abcdef';
const PASSWORD = 'Bench-Million-2026!';
const started = Date.now();
const log = (line) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const db = new pg.Client({ connectionString: url });
await db.connect();
const { rows: total } = await db.query(`select count(*)::int as n from customers`);
const { rows: germans } = await db.query(
  `select c.id, c.email, c.legal_entity_id from customers c
   join legal_entities e on e.legal_entity_id = c.legal_entity_id and e.iso_country = 'DE'
   where c.email like 'm%@million.example'
   order by hashtext(c.id::text) limit $1`,
  [TOUCH + SIGN_INS],
);
// The production-hash sign-ins use customers the rest does not touch (when there are enough).
const signInCustomers = germans.length > TOUCH ? germans.slice(TOUCH) : germans.slice(0, SIGN_INS);
const customers = germans.slice(0, TOUCH);
log(`${total[0].n} customers in the database; ${customers.length} measured`);

const env = {
  NODE_ENV: 'production',
  DATABASE_URL: url,
  SEED_DEMO_DATA: 'false',
  LOYALTY_CLIENT_SECRET: secret,
  DATABASE_POOL_SIZE: '20',
  ACCESS_TOKEN_TTL_SECONDS: '3600',
};
let app = spawnServer(port, env);
const baselinePort = port + 1000;
const baseline = spawn(process.execPath, ['scripts/bench-baseline-server.mjs', String(baselinePort)], {
  cwd: root,
  stdio: 'ignore',
});
const rows = [];
const row = (what, n, seconds, latencies, failed) => {
  rows.push(
    `| ${what} | ${n} | ${(latencies.length / seconds).toFixed(0)}/s | ${quantile(latencies, 0.5).toFixed(1)} ms | ${quantile(latencies, 0.99).toFixed(1)} ms | ${failed} | ${load()} |`,
  );
  log(rows.at(-1));
};

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

/** One request per item through autocannon, CONNECTIONS at a time; `build(item)` gives its path, method, headers, body. */
function blast(origin, items, build) {
  let i = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: origin,
        connections: CONNECTIONS,
        amount: items.length,
        requests: [
          { setupRequest: (req) => ({ ...req, method: 'GET', ...build(items[i++ % items.length]) }) },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}
/** autocannon's latencies are whole milliseconds. */
const ms = (v) => (v < 1 ? '< 1 ms' : `${v} ms`);
const rowAc = (what, n, result) => {
  const failed = result.non2xx + result.errors + result.timeouts;
  rows.push(
    `| ${what} | ${n} | ${Math.round(result.requests.total / ((result.finish - result.start) / 1000))}/s | ${ms(result.latency.p50)} | ${ms(result.latency.p99)} | ${failed} | ${load()} |`,
  );
  log(rows.at(-1));
};

try {
  await waitFor(`${base}/health/ready`, 180_000);
  await waitFor(`http://127.0.0.1:${baselinePort}/hello`, 30_000);

  // 1. Sign-in at the production hash cost.
  if (SIGN_INS > 0 && !EXPIRY_ONLY) {
    const latencies = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < Math.min(SIGN_INS, signInCustomers.length)) {
          const c = signInCustomers[next++];
          const t = performance.now();
          await httpSignIn(base, c.email, PASSWORD);
          latencies.push(performance.now() - t);
        }
      }),
    );
    row(
      'sign-in (production hash, whole flow, 4 at a time)',
      latencies.length,
      (performance.now() - t0) / 1000,
      latencies,
      0,
    );
  }

  // 2. Tokens for everyone measured.
  process.env.NODE_ENV = 'test';
  const { hashPassword } = await import(path.join(root, 'apps/server/dist/lib/password-hash.js'));
  await db.query(`update customers set password_hash = $1 where id = any($2)`, [
    await hashPassword(PASSWORD),
    customers.map((c) => c.id),
  ]);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < customers.length) {
        const c = customers[next++];
        const tokens = await httpSignIn(base, c.email, PASSWORD);
        c.access = tokens.access_token;
        c.refresh = tokens.refresh_token;
      }
    }),
  );
  log(`${customers.length} customers signed in`);
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
  app = spawnServer(port, env);
  await waitFor(`${base}/health/ready`, 180_000);
  log('server restarted: no read cache holds anyone');

  // Each pass makes at least 10 000 requests: over 10 000 different customers at a million, over the
  // same few again and again on a small database.
  const list = Array.from(
    { length: Math.max(customers.length, 10_000) },
    (_, i) => customers[i % customers.length],
  );
  const auth = (c, more = {}) => ({ headers: { authorization: `Bearer ${c.access}`, ...more } });

  const fetchGet = (p) => (c) => fetch(base + p(c), auth(c));
  // 3. Every call, by autocannon (the load generator must not be the bottleneck: a fetch loop is).
  if (!EXPIRY_ONLY) {
    const get = (p) => (c) => ({ path: p(c), headers: { authorization: `Bearer ${c.access}` } });
    const bare = await blast(`http://127.0.0.1:${baselinePort}`, list, () => ({ path: '/hello' }));
    rowAc('bare Fastify hello-world (same run)', customers.length, bare);
    const reads = [
      ['login status', () => '/api/customer/cuda/customer/v2/login/own/status'],
      ['tier details (loyalty page)', (c) => `/api/customer/loyalty-service/customer/${c.id}`],
      [
        'history, newest page',
        (c) => `/api/customer/loyalty-service/customer/${c.id}/history?page_index=0&page_size=20`,
      ],
      ['expiry forecast', (c) => `/api/customer/loyalty-service/customer/${c.id}/expiry-forecast`],
      ['consents', (c) => `/api/customer/consents/v1/customers/${c.id}/consents`],
      ['sessions (security page)', () => '/api/customer/cuda/customer/sessions/own'],
      ['security activity', () => '/api/customer/cuda/customer/security-activity/own'],
      ['personal data', () => '/api/customer/cuda/customer/personaldata/own'],
    ];
    for (const [title, p] of reads) rowAc(title, customers.length, await blast(base, list, get(p)));
    // The first 500 customers again and again: what the per-instance read cache answers.
    const hot = customers.slice(0, 500);
    const hotList = Array.from({ length: 10_000 }, (_, i) => hot[i % hot.length]);
    for (const [title, p] of reads.slice(0, 2))
      rowAc(
        `${title}, cached (${hot.length} customers again and again)`,
        hot.length,
        await blast(base, hotList, get(p)),
      );
    // The anti-forgery token and the profile the PUT sends back (not measured).
    await pass(customers, async (c) => {
      const res = await fetch(`${base}/api/customer/cuda/customer/personaldata/own`, auth(c));
      c.csrf = res.headers.get('x-csrf-token');
      const body = await res
        .clone()
        .json()
        .catch(() => undefined);
      c.profile = body?.body?.PersonalDataRTO;
      return res;
    });
    const write = (c) => ({
      authorization: `Bearer ${c.access}`,
      'content-type': 'application/json',
      'x-csrf-token': c.csrf,
    });
    const cities = ['Koeln', 'Bonn', 'Essen', 'Kiel'];
    let w = 0;
    rowAc(
      'profile write (PUT personal data)',
      customers.length,
      await blast(base, list, (c) => ({
        method: 'PUT',
        path: '/api/customer/cuda/customer/personaldata/own',
        headers: write(c),
        body: JSON.stringify({ ...c.profile, addressCity: cities[w++ % 4] }),
      })),
    );
    rowAc(
      'consent write (PATCH)',
      customers.length,
      await blast(base, list, (c) => ({
        method: 'PATCH',
        path: `/api/customer/consents/v1/customers/${c.id}/consents/marketing-sms-Sm3q`,
        headers: write(c),
        body: JSON.stringify({ legalEntityId: c.legal_entity_id, granted: w++ % 2 === 0 }),
      })),
    );
    rowAc(
      'partner code (POST; made on the first call)',
      customers.length,
      await blast(base, list, (c) => ({
        method: 'POST',
        path: `/api/customer/loyalty-service/customer/${c.id}/partner-code/velovia-bike-rides`,
        headers: write(c),
      })),
    );
    const refresh = await pass(
      list,
      async (c) => {
        const res = await fetch(`${base}/auth/realms/customer/protocol/openid-connect/token`, {
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
      Math.min(CONNECTIONS, customers.length),
    );
    row('refresh (token endpoint)', customers.length, refresh.seconds, refresh.latencies, refresh.failed);
    const tokenRes = await fetch(`${base}/auth/realms/customer/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`rental-system:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
    });
    const serviceToken = (await tokenRes.json()).access_token;
    const batches = [];
    for (let i = 0; i < list.length; i += 50)
      batches.push(list.slice(i, i + 50).map((c, k) => ({ c, n: i + k })));
    const runId = Date.now().toString(36);
    // The rental system sends its batches a few at a time (the batch lane admits a few waiting ones).
    const events = await pass(
      batches,
      (batch) =>
        fetch(`${base}/api/internal/loyalty/events`, {
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
    );
    row(
      'event batch (50 customers each, 4 at a time)',
      customers.length,
      events.seconds,
      events.latencies,
      events.failed,
    );
  }

  // 4. The expiry job with reads running.
  if (process.env.BENCH_EXPIRY === '1' || EXPIRY_ONLY) {
    const { rows: due } = await db.query(
      `select count(*)::int as lots, count(distinct customer_id)::int as customers from loyalty_events where remaining_points > 0 and expires_at <= now()`,
    );
    log(`due before the job: ${due[0].lots} lots of ${due[0].customers} customers`);
    const readsAlone = await pass(
      customers,
      fetchGet((c) => `/api/customer/loyalty-service/customer/${c.id}/history?page_index=1&page_size=20`),
    );
    row(
      'history page 2 (alone, before the job)',
      customers.length,
      readsAlone.seconds,
      readsAlone.latencies,
      readsAlone.failed,
    );
    let done = false;
    const t0 = performance.now();
    const job = new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['apps/server/dist/cli/loyalty.js', 'expire'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: url, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.on('exit', (status) =>
        status === 0 ? resolve(out.trim()) : reject(new Error(`expire: exit ${status}`)),
      );
    }).finally(() => (done = true));
    const during = { latencies: [], failed: 0 };
    let round = 0;
    while (!done) {
      const pages = ['history?page_index=2&page_size=20', 'history?page_index=0&page_size=10'];
      const r = await pass(
        customers.slice(0, 2000),
        fetchGet((c) => `/api/customer/loyalty-service/customer/${c.id}/${pages[round % 2]}`),
      );
      round += 1;
      during.latencies.push(...r.latencies);
      during.failed += r.failed;
    }
    const output = await job;
    const seconds = (performance.now() - t0) / 1000;
    row('history pages during the expiry job', customers.length, seconds, during.latencies, during.failed);
    rows.push('');
    rows.push(
      `Expiry job: ${seconds.toFixed(0)} s for ${due[0].lots} lots of ${due[0].customers} customers — ${output.split('\n').join(' ')}`,
    );
  }

  console.log(
    `Database ${new URL(url).pathname.slice(1)}: ${total[0].n} customers; ${customers.length} measured, ${CONNECTIONS} connections.\n`,
  );
  console.log('| call | customers | rate | p50 | p99 | failed | load (1, 5, 15 min) at its end |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(rows.join('\n'));
} finally {
  app.kill('SIGTERM');
  baseline.kill('SIGTERM');
  await db.end();
}
