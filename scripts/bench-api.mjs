#!/usr/bin/env node
// Benchmark: requests per second and latency of the login-status call at 50 connections, next to a
// bare Fastify hello-world route measured in the same run on the same machine.
// Usage: npm run bench:api                      (embedded PGlite, fresh data dir)
//        DATABASE_URL=postgres://… npm run bench:api   (a PostgreSQL server)
// Needs a build (npm run build). Prints a Markdown table for docs/performance.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { httpSignIn } from './http-sign-in.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const port = 18000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-'));

const measure = (title, url, headers = {}) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (err, result) => {
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

// Development mode: the demo customers are needed to sign in.
const app = spawn(process.execPath, ['apps/server/dist/server.js'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  },
});

const hello = Fastify({ logger: false });
hello.get('/hello', async () => ({ hello: 'world' }));

try {
  await waitFor(`${baseUrl}/config.json`);
  const { access_token: token } = await httpSignIn(baseUrl, 'demo.de@example.com', 'Demo-2026!');
  await hello.listen({ port: port + 1, host: '127.0.0.1' });
  const storage = process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite';

  const results = [];
  results.push(
    await measure('hello-world (bare Fastify, same machine)', `http://127.0.0.1:${port + 1}/hello`),
  );
  results.push(
    await measure(`login status (${storage})`, `${baseUrl}/api/customer/cuda/customer/v2/login/own/status`, {
      authorization: `Bearer ${token}`,
    }),
  );

  console.log(`\n${connections} connections, ${duration} s each, Node ${process.version}\n`);
  console.log('| route | requests/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.title} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} |`);
  console.log(
    `\nlogin status reaches ${((results[1].rps / results[0].rps) * 100).toFixed(1)} % of the hello-world rate`,
  );
} finally {
  app.kill();
  await hello.close();
  rmSync(dataDir, { recursive: true, force: true });
}
