#!/usr/bin/env node
// Benchmark (issue 10, finding 8): does a stream of 500-event batches on the internal loyalty endpoint
// freeze the server for everyone else? Measures /config.json (no database) and a customer read (tier
// details) first idle, then while batches run back to back, each for BENCH_SECONDS (default 10).
// Usage: npm run build && npm run bench:events            (embedded PGlite, fresh data dir)
//        DATABASE_URL=postgres://… npm run bench:events   (a PostgreSQL server)
// Goals: /config.json p95 under 50 ms while batches run; customer reads at least half the idle rate.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpSignIn } from './http-sign-in.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 10;
const port = 19000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const senderScript = path.join(import.meta.dirname, 'bench-events-sender.mjs');
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-events-'));
const clientSecret = 'bench-only-secret-0123456789abcdefghijkl';

const server = spawnServer(port, {
  DATA_DIR: dataDir,
  ACCESS_TOKEN_TTL_SECONDS: '3600',
  LOYALTY_CLIENT_SECRET: clientSecret,
  LOYALTY_EXPIRY_INTERVAL_SECONDS: '0',
});

/** autocannon on one URL; resolves with requests/s and latency percentiles. */
const measure = (url, headers = {}) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx answers`));
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p95: result.latency.p97_5,
        p99: result.latency.p99,
      });
    });
  });

async function serviceToken() {
  const res = await fetch(`${baseUrl}/auth/realms/customer/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`rental-system:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
  });
  if (!res.ok) throw new Error(`service token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

/**
 * Sends 500-event batches back to back until `until` from a process of its own
 * (bench-events-sender.mjs); resolves with the batches' durations.
 */
function sendBatches(token, customerIds, until) {
  return new Promise((resolve, reject) => {
    const sender = spawn(
      process.execPath,
      [senderScript, baseUrl, token, customerIds.join(','), String(until)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    sender.stdout.on('data', (chunk) => (out += chunk));
    sender.on('error', reject);
    sender.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`batch sender exited with ${code}`)),
    );
  });
}

try {
  await waitFor(`${baseUrl}/config.json`);
  // The batches go to six demo members; one reader is among them (every batch changes their points,
  // so their reads need the database), the other (demo.dk) is in no batch, like most customers.
  const members = [];
  const readers = [];
  for (const cc of ['de', 'at', 'fr', 'it', 'es', 'hu', 'dk']) {
    const { access_token: token } = await httpSignIn(baseUrl, `demo.${cc}@example.com`, 'Demo-2026!');
    const uuid = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
    if (cc !== 'dk') members.push(uuid);
    if (cc === 'de' || cc === 'dk') readers.push({ uuid, headers: { authorization: `Bearer ${token}` } });
  }
  const [reader, bystander] = readers;
  const tierUrl = `${baseUrl}/api/customer/loyalty-service/customer/${reader.uuid}`;
  const bystanderUrl = `${baseUrl}/api/customer/loyalty-service/customer/${bystander.uuid}`;
  const token = await serviceToken();

  const idle = {
    config: await measure(`${baseUrl}/config.json`),
    read: await measure(tierUrl, reader.headers),
    bystander: await measure(bystanderUrl, bystander.headers),
  };
  const busyConfigRun = (async () => {
    const until = Date.now() + duration * 1000 + 500;
    const [durations, config] = await Promise.all([
      sendBatches(token, members, until),
      measure(`${baseUrl}/config.json`),
    ]);
    return { durations, config };
  })();
  const { durations, config } = await busyConfigRun;
  const readRun = await Promise.all([
    sendBatches(token, members, Date.now() + duration * 1000 + 500),
    measure(tierUrl, reader.headers),
  ]);
  const bystanderRun = await Promise.all([
    sendBatches(token, members, Date.now() + duration * 1000 + 500),
    measure(bystanderUrl, bystander.headers),
  ]);
  const busy = { config, read: readRun[1], bystander: bystanderRun[1] };
  const allBatches = [...durations, ...readRun[0], ...bystanderRun[0]].sort((a, b) => a - b);

  const storage = process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite';
  const ms = (v) => Math.round(v);
  console.log(`\n${storage}, ${connections} connections, ${duration} s each, Node ${process.version}\n`);
  console.log('| call | while | requests/s | p50 ms | p95 ms | p99 ms |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const [what, m] of [
    ['/config.json', idle.config],
    ['/config.json', busy.config],
    ['tier details, a customer in every batch', idle.read],
    ['tier details, a customer in every batch', busy.read],
    ['tier details, a customer in no batch', idle.bystander],
    ['tier details, a customer in no batch', busy.bystander],
  ]) {
    const state = Object.values(idle).includes(m) ? 'idle' : '500-event batches';
    console.log(`| ${what} | ${state} | ${ms(m.rps)} | ${m.p50} | ${m.p95} | ${m.p99} |`);
  }
  const median = allBatches[Math.floor(allBatches.length / 2)];
  console.log(
    `\n${allBatches.length} batches of 500 events, median ${ms(median)} ms each; ` +
      `customer reads while batches run: ${((busy.read.rps / idle.read.rps) * 100).toFixed(0)} % of idle ` +
      `(a customer in every batch), ${((busy.bystander.rps / idle.bystander.rps) * 100).toFixed(0)} % (a customer in none)`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
