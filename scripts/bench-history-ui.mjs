#!/usr/bin/env node
/* global window, document, requestAnimationFrame -- page.evaluate callbacks run in the browser */
// Benchmark: the points history page in a real Chromium with 10 000 entries loaded (100 pages).
// Reports the DOM node count and the frame times while scrolling from top to bottom, at full speed
// and with the CPU slowed down 4× (a slow phone).
// Usage: npm run build && npm run bench:history-ui
// Needs /usr/bin/chromium (or CHROMIUM_PATH). Prints a Markdown table for docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const port = 19000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-bench-ui-'));
const secret = randomBytes(24).toString('base64url');
const ENTRIES = 10_000;
const CUSTOMER = 'demo.fr@example.com';

/** Adds ENTRIES rental events for the customer through the internal endpoint, as the rental system would. */
async function seedHistory(customerId) {
  const tokenResponse = await fetch(`${baseUrl}/auth/realms/customer/protocol/openid-connect/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`rental-system:${secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'loyalty:events' }),
  });
  if (!tokenResponse.ok)
    throw new Error(`service token: ${tokenResponse.status} ${await tokenResponse.text()}`);
  const { access_token: token } = await tokenResponse.json();
  const now = Date.now();
  const span = 330 * 86_400_000; // within the 12 months in which points count
  for (let start = 0; start < ENTRIES; start += 500) {
    const events = Array.from({ length: Math.min(500, ENTRIES - start) }, (_, i) => {
      const n = start + i;
      return {
        sourceId: `bench-ui:${n}`,
        customerId,
        type: 'rental-completed',
        points: 5 + (n % 40),
        occurredAt: new Date(now - span + Math.floor((span * n) / ENTRIES)).toISOString(),
        description: `FR-${100000 + n}`,
      };
    });
    const res = await fetch(`${baseUrl}/api/internal/loyalty/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ events }),
    });
    if (!res.ok) throw new Error(`events: ${res.status} ${await res.text()}`);
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * Scrolls the window down by `step` px per frame (a fraction of the screen height when below 1) until
 * the bottom or `maxFrames`, recording frame intervals and the largest DOM seen.
 */
async function scrollFrames(page, step, maxFrames) {
  return page.evaluate(
    async ({ step: stepSetting, maxFrames }) => {
      window.scrollTo(0, 0);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const frames = [];
      let maxNodes = 0;
      let last = performance.now();
      const step = stepSetting < 1 ? Math.round(window.innerHeight * stepSetting) : stepSetting;
      await new Promise((resolve) => {
        const tick = (now) => {
          frames.push(now - last);
          last = now;
          maxNodes = Math.max(maxNodes, document.getElementsByTagName('*').length);
          const bottom = document.documentElement.scrollHeight - window.innerHeight;
          if (window.scrollY >= bottom - 1 || frames.length > maxFrames) return resolve();
          window.scrollBy(0, step);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      return { frames: frames.slice(1), maxNodes, scrollHeight: document.documentElement.scrollHeight };
    },
    { step, maxFrames },
  );
}

const server = spawnServer(port, {
  DATA_DIR: dataDir,
  ACCESS_TOKEN_TTL_SECONDS: '3600',
  LOYALTY_CLIENT_SECRET: secret,
  DATABASE_URL: '',
});

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumArgs,
});

try {
  await waitFor(`${baseUrl}/config.json`);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/customer/loyalty-ui/?locale=en`);
  await page.getByLabel('E-mail').fill(CUSTOMER);
  await page.getByLabel('Password', { exact: true }).fill('Demo-2026!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/customer\/loyalty-ui\/status/);
  const customerId = await page.evaluate(() => {
    const token = sessionStorage.getItem('roadpass.token');
    return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).sub;
  });
  await seedHistory(customerId);

  await page.goto(`${baseUrl}/customer/loyalty-ui/history?locale=en`);
  const loadMore = page.getByRole('button', { name: 'Load more' });
  const counterText = () => page.locator('[role="status"][aria-atomic="true"]').first().textContent();
  await page
    .getByText(/entries loaded$/)
    .first()
    .waitFor();
  const started = Date.now();
  while (await loadMore.isVisible()) {
    const before = await counterText();
    await loadMore.dispatchEvent('click');
    await page
      .waitForFunction(
        (previous) => document.querySelector('[role="status"][aria-atomic="true"]')?.textContent !== previous,
        before,
        { timeout: 30_000 },
      )
      .catch(async (error) => {
        await page.screenshot({ path: '/tmp/bench-fail.png' });
        console.log('after', JSON.stringify(await counterText()));
        throw error;
      });
  }
  const loadSeconds = (Date.now() - started) / 1000;
  const counter = await counterText();
  const nodesAtTop = await page.evaluate(() => document.getElementsByTagName('*').length);

  // A flick: 40 px a frame (about 2 400 px/s) for 600 frames; a stress run: 90 % of a screen a frame,
  // top to bottom (every frame shows rows never rendered before).
  const flick = await scrollFrames(page, 40, 600);
  const fast = await scrollFrames(page, 0.9, 20_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const flickSlow = await scrollFrames(page, 40, 600);
  const slow = await scrollFrames(page, 0.9, 20_000);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  const row = (label, run) =>
    `| ${label} | ${run.frames.length} | ${percentile(run.frames, 50).toFixed(1)} ms | ${percentile(run.frames, 95).toFixed(1)} ms | ${Math.max(...run.frames).toFixed(1)} ms | ${run.frames.filter((f) => f > 50).length} | ${run.maxNodes} |`;
  console.log(`\nHistory page, ${counter?.trim()}, 390×844, Chromium ${browser.version()}`);
  console.log(
    `Loading all pages with "Load more": ${loadSeconds.toFixed(1)} s; page height ${fast.scrollHeight} px`,
  );
  console.log(`DOM nodes in the whole document with everything loaded (top of the list): ${nodesAtTop}\n`);
  console.log('| Scroll | Frames | p50 frame | p95 frame | Worst frame | Frames > 50 ms | Max DOM nodes |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(row('Flick, 40 px a frame, full speed', flick));
  console.log(row('Flick, 40 px a frame, CPU slowed 4× (slow phone)', flickSlow));
  console.log(row('Top → bottom, a screen a frame, full speed', fast));
  console.log(row('Top → bottom, a screen a frame, CPU slowed 4×', slow));
  await context.close();
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
