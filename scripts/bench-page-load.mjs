#!/usr/bin/env node
// Benchmark: how long a signed-in customer waits for the loyalty status page, and how many network
// round trips lie in a row between the HTML and the status content, on a slow mobile network
// (Chromium's network emulation: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, as Lighthouse's
// "slow 4G"). Warm: a reload with the browser cache; cold: the browser cache emptied first.
//
// "Round trips in a row" is the longest chain of requests where each started only after the one
// before it had begun to answer, counted until the status content shows: what the start-up makes wait on
// what. Requests answered from the browser cache (faster than half a round trip) do not count.
// Usage: npm run build && npm run bench:page-load (BENCH_RUNS=5, WEB_DIST_DIR to compare builds)
/* global document -- waitForFunction callbacks run in the browser */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = 21000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-page-load-'));
const network = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 };

const server = spawnServer(port, { DATA_DIR: dataDir });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumArgs,
});

/** The longest chain of requests each starting after the one before it had begun to answer. */
function roundTripsInARow(requests) {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth = new Map();
  for (const request of sorted) {
    let deepest = 0;
    for (const before of sorted) {
      if (before === request || before.firstByte > request.start) continue;
      deepest = Math.max(deepest, depth.get(before) ?? 0);
    }
    depth.set(request, deepest + 1);
  }
  return Math.max(0, ...depth.values());
}

async function measure(page, cdp, cold) {
  if (cold) await cdp.send('Network.clearBrowserCache');
  const requests = [];
  const onDone = (request) => {
    const timing = request.timing();
    if (timing.responseEnd < 0) return;
    requests.push({
      url: request.url(),
      start: timing.startTime,
      firstByte: timing.startTime + timing.responseStart,
      end: timing.startTime + timing.responseEnd,
    });
  };
  page.on('requestfinished', onDone);
  const begin = Date.now();
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => document.querySelector('[role="progressbar"]') !== null, null, {
    timeout: 60_000,
    polling: 10,
  });
  const shown = Date.now();
  page.off('requestfinished', onDone);
  // A request answered in well under the emulated round trip came from the browser's cache: no trip.
  // The favicon is the browser's own request: nothing on the page waits for it.
  const beforeContent = requests.filter(
    (r) =>
      r.start >= begin &&
      r.start < shown &&
      r.end - r.start >= network.latency / 2 &&
      !new URL(r.url).pathname.startsWith('/favicon'),
  );
  return {
    ms: shown - begin,
    roundTrips: roundTripsInARow(beforeContent),
    chain: beforeContent
      .sort((a, b) => a.start - b.start)
      .map((r) => `${r.start - begin}–${Math.round(r.end - begin)} ms ${new URL(r.url).pathname}`),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  await waitFor(`${baseUrl}/config.json`);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/customer/loyalty-ui/status`);
  await page.getByLabel('E-mail').fill('demo.de@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Demo-2026!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/customer\/loyalty-ui\/status/);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', network);

  const results = { warm: [], cold: [] };
  for (let i = 0; i < runs; i++) {
    results.cold.push(await measure(page, cdp, true));
    results.warm.push(await measure(page, cdp, false));
  }
  console.log(`Status page of a signed-in customer, ${runs} runs each, 150 ms RTT, 1.6 Mbit/s down`);
  console.log('| load | time to status content (median) | round trips in a row (median) |');
  console.log('|---|---|---|');
  for (const kind of ['cold', 'warm']) {
    const list = results[kind];
    console.log(
      `| ${kind} | ${Math.round(median(list.map((r) => r.ms)))} ms | ${median(list.map((r) => r.roundTrips))} |`,
    );
  }
  if (process.env.BENCH_VERBOSE) {
    for (const kind of ['cold', 'warm']) console.log(`\n${kind}:\n${results[kind][0].chain.join('\n')}`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
