#!/usr/bin/env node
// Benchmark: time from starting the built server (what `npm start` runs after its build) to the
// first answered request, on a fresh data directory (first start: creates the database, migrates,
// seeds demo data) and on an existing one (a restart). Usage: npm run build && npm run bench:startup
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = 19000 + Math.floor(Math.random() * 1000);

async function startOnce(dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/config.json`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 60_000) throw new Error('server did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fresh = [];
const restart = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'roadpass-startup-'));
  fresh.push(await startOnce(dir));
  restart.push(await startOnce(dir));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (xs) =>
  `median ${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})`;
console.log(`Start to first answered request, ${runs} runs, Node ${process.version}`);
console.log(`| first start (new database, migrations, demo data) | ${fmt(fresh)} |`);
console.log(`| restart (existing database) | ${fmt(restart)} |`);
