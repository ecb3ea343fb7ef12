#!/usr/bin/env node
// Benchmark: requests per second and latency of the login status, tier details, a history page and the
// personal data (GET, and a PUT of the whole profile checked with the served rules) at 50 connections, next to a bare Fastify hello-world measured in the same run on the same machine.
// Server and baseline each run in their own process; autocannon (this process) loads both the same way.
// Usage: npm run bench:api                      (embedded PGlite, fresh data dir)
//        DATABASE_URL=postgres://… npm run bench:api   (a PostgreSQL server)
// Needs a build (npm run build). Prints a Markdown table for docs/performance.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const port = 18000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-'));

const measure = (title, url, headers = {}, seconds = duration, request = {}) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers, ...request }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${title}: ${result.non2xx} non-2xx answers`));
      resolve({
        title,
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        total: result.requests.total,
      });
    });
  });

const app = spawnServer(port, { DATA_DIR: dataDir, ACCESS_TOKEN_TTL_SECONDS: '3600' });

const baseline = spawn(process.execPath, ['scripts/bench-baseline-server.mjs', String(port + 1)], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitFor(`${baseUrl}/config.json`);
  await waitFor(`http://127.0.0.1:${port + 1}/hello`);
  const { access_token: token } = await httpSignIn(baseUrl, 'demo.de@example.com', 'Demo-2026!');
  const auth = { authorization: `Bearer ${token}` };
  const status = await fetch(`${baseUrl}/api/customer/cuda/customer/v2/login/own/status`, { headers: auth });
  const { user } = await status.json();
  const storage = process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite';
  const loyalty = `${baseUrl}/api/customer/loyalty-service/customer/${user.uuid}`;

  const baselineUrl = `http://127.0.0.1:${port + 1}/hello`;
  // Both processes warm up (JIT, connection pools) before anything counts.
  await measure('warm-up', baselineUrl, {}, 2);
  await measure('warm-up', `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`, auth, 2);

  const results = [];
  results.push(await measure('hello-world (bare Fastify, own process)', baselineUrl));
  results.push(
    await measure(
      `login status (${storage})`,
      `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`,
      auth,
    ),
  );
  results.push(await measure(`tier details (${storage})`, loyalty, auth));
  results.push(
    await measure(
      `history page 0 of 100 entries (${storage})`,
      `${loyalty}/history?page_size=100&page_index=0`,
      auth,
    ),
  );

  // Personal data: GET, then PUT of the same profile (every field checked with the served rules, the
  // row written). The PUT needs the anti-forgery token a GET answers with.
  const personalUrl = `${baseUrl}/api/customer/cuda/customer/personaldata/own`;
  results.push(await measure(`personal data GET (${storage})`, personalUrl, auth));
  const own = await fetch(personalUrl, { headers: auth });
  const profile = (await own.json()).body.PersonalDataRTO;
  results.push(
    await measure(
      `personal data PUT (${storage})`,
      personalUrl,
      { ...auth, 'content-type': 'application/json', 'x-csrf-token': own.headers.get('x-csrf-token') },
      duration,
      { method: 'PUT', body: JSON.stringify(profile) },
    ),
  );

  console.log(`\n${connections} connections, ${duration} s each, Node ${process.version}\n`);
  console.log('| route | requests/s | % of hello-world | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    const share = ((r.rps / results[0].rps) * 100).toFixed(1);
    console.log(`| ${r.title} | ${Math.round(r.rps)} | ${share} % | ${r.p50} | ${r.p99} |`);
  }
} finally {
  app.kill();
  baseline.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
