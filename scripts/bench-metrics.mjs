#!/usr/bin/env node
// What the Prometheus metrics cost per request (issue 21 §1, docs/performance.md#metrics-on-every-request):
// the server's own CPU time (user + system, all its threads, from /proc/<pid>/stat) per 1 000 requests
// of the same calls, with metrics (the default) and with METRICS_ENABLED=false, each server in its own
// process, in turns (on, off, on, off, …). CPU time per request is what the hook adds; requests per
// second on a shared two-core machine vary by more than the 3 % this is about, CPU time far less.
// Usage: npm run build && npm run bench:metrics   (BENCH_ROUNDS, BENCH_REQUESTS; embedded PGlite)
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const requests = Number(process.env.BENCH_REQUESTS ?? 30_000);
const ticksPerSecond = 100; // USER_HZ on Linux
const statusPath = '/api/customer/cuda/customer/v2/login/own/status';

/** The process's CPU time so far, in milliseconds (utime + stime of /proc/<pid>/stat). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

const load = (url, headers, amount) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: 16, amount, headers }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${result.non2xx} non-2xx answers`));
      resolve(result);
    }),
  );

async function measure(metrics, port) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-metrics-'));
  const proc = spawnServer(port, {
    DATA_DIR: dataDir,
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    ...(metrics ? {} : { METRICS_ENABLED: 'false' }),
  });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(`${baseUrl}/config.json`);
    const { access_token: token } = await httpSignIn(baseUrl, 'demo.de@example.com', 'Demo-2026!');
    const headers = { authorization: `Bearer ${token}` };
    const { user } = await (await fetch(`${baseUrl}${statusPath}`, { headers })).json();
    const calls = {
      'login status': `${baseUrl}${statusPath}`,
      'tier details': `${baseUrl}/api/customer/loyalty-service/customer/${user.uuid}`,
    };
    const answer = {};
    for (const [name, url] of Object.entries(calls)) {
      await load(url, headers, 3_000); // warm-up: JIT, caches
      const before = cpuMs(proc.pid);
      await load(url, headers, requests);
      answer[name] = ((cpuMs(proc.pid) - before) / requests) * 1000; // ms per 1 000 requests
    }
    return answer;
  } finally {
    proc.kill();
    await new Promise((resolve) => proc.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = { on: [], off: [] };
for (let round = 0; round < rounds; round++) {
  for (const metrics of [true, false]) {
    const port = 18500 + Math.floor(Math.random() * 1000);
    const answer = await measure(metrics, port);
    results[metrics ? 'on' : 'off'].push(answer);
    console.log(`round ${round + 1}, metrics ${metrics ? 'on ' : 'off'}:`, JSON.stringify(answer));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `\n${requests} requests per call and round, ${rounds} rounds, 16 connections, Node ${process.version}\n`,
);
console.log('| call | CPU ms per 1 000 requests, metrics on | off | cost of the metrics |');
console.log('|---|---:|---:|---:|');
for (const name of Object.keys(results.on[0])) {
  const on = median(results.on.map((r) => r[name]));
  const off = median(results.off.map((r) => r[name]));
  console.log(
    `| ${name} | ${on.toFixed(1)} | ${off.toFixed(1)} | ${(((on - off) / off) * 100).toFixed(1)} % |`,
  );
}
