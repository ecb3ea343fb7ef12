#!/usr/bin/env node
// Benchmark of the ended-session check (issue 18 §1, decision 0031): requests per second of the
// login-status call with access tokens of many different customers, on a server with the check and on
// one without it (the same build, each in its own process, the check turned off through the test
// hook PUT /__test__/session-check), measured in turns (with, without, with, without) at 50
// connections. Both servers run in test mode (NODE_ENV=test, FAULT_INJECTION=true: the hooks that
// create customers and turn the check off exist only there) on embedded PGlite.
// Usage: npm run bench:session-check     (needs npm run build; BENCH_SECONDS, BENCH_CUSTOMERS)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const customers = Number(process.env.BENCH_CUSTOMERS ?? 100);
const connections = 50;
const statusPath = '/api/customer/cuda/customer/v2/login/own/status';

async function start(port) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-session-'));
  const proc = spawnServer(port, {
    NODE_ENV: 'test',
    FAULT_INJECTION: 'true',
    DATA_DIR: dataDir,
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/config.json`);
  // Many different customers, each signed in once: the check looks up a different session each time.
  const tokens = [];
  for (let i = 0; i < customers; i++) {
    const res = await fetch(`${baseUrl}/__test__/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ country: 'DE' }),
    });
    const { email } = await res.json();
    tokens.push((await httpSignIn(baseUrl, email, 'Demo-2026!')).access_token);
  }
  return {
    baseUrl,
    tokens,
    stop: () => {
      proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const measure = (server, seconds = duration) =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: server.baseUrl,
        connections,
        duration: seconds,
        requests: server.tokens.map((token) => ({
          method: 'GET',
          path: statusPath,
          headers: { authorization: `Bearer ${token}` },
        })),
      },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx > 0) return reject(new Error(`${result.non2xx} non-2xx answers`));
        resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
      },
    );
  });

const port = 19000 + Math.floor(Math.random() * 1000);
const [withCheck, withoutCheck] = await Promise.all([start(port), start(port + 1)]);
try {
  const off = await fetch(`${withoutCheck.baseUrl}/__test__/session-check`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: false }),
  });
  if (off.status !== 204) throw new Error(`turning the check off answered ${off.status}`);
  await measure(withCheck, 2);
  await measure(withoutCheck, 2);
  const runs = { with: [], without: [] };
  for (let round = 0; round < 2; round++) {
    runs.with.push(await measure(withCheck));
    runs.without.push(await measure(withoutCheck));
  }
  const mean = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
  const a = mean(runs.with, 'rps');
  const b = mean(runs.without, 'rps');
  console.log(
    `\n${connections} connections, ${customers} customers, 2 × ${duration} s each, Node ${process.version}\n`,
  );
  console.log('| login status | requests/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| without the session check | ${Math.round(b)} | ${mean(runs.without, 'p50')} | ${mean(runs.without, 'p99')} |`,
  );
  console.log(
    `| with the session check | ${Math.round(a)} | ${mean(runs.with, 'p50')} | ${mean(runs.with, 'p99')} |`,
  );
  console.log(`\nRate lost to the check: ${(((b - a) / b) * 100).toFixed(1)} % (goal: at most 10 %)`);
} finally {
  withCheck.stop();
  withoutCheck.stop();
}
