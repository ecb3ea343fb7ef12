#!/usr/bin/env node
// Screenshots of the account home, the loyalty screens, the sign-in and not-found pages at phone
// (390×844) and desktop (1280×800) width, taken from the built app on a fresh embedded database, into
// docs/screenshots/. Usage: npm run build && npm run screenshots
/* global document -- page.evaluate callbacks run in the browser */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'screenshots');
const port = 20000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-screenshots-'));

/** name → loyalty path, for demo.de@example.com (royal gold, partner codes for the first two partner rewards). */
const memberScreens = {
  'loyalty-status': 'status',
  'loyalty-tier-overview': 'tier-overview',
  'loyalty-reward': 'reward/velovia-bike-rides',
  'loyalty-history': 'history',
  'loyalty-faq': 'faq',
};

async function signIn(page, email, query) {
  await page.goto(`${baseUrl}/customer/loyalty-ui/${query}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Demo-2026!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/customer\/loyalty-ui\/(status|onboarding)/);
}

/** Waits until the page has settled: no spinner, no skeleton, carousel moved to its initial card. */
async function settle(page) {
  await page.waitForFunction(
    () => !document.querySelector('[aria-busy="true"], .loyalty-skeleton, .spinner'),
  );
  await page.waitForTimeout(1_800);
}

const server = spawnServer(port, { DATA_DIR: dataDir, DATABASE_URL: '' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});

try {
  await waitFor(`${baseUrl}/config.json`);
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, 'demo.de@example.com', '');
    for (const [name, target] of Object.entries(memberScreens)) {
      await page.goto(`${baseUrl}/customer/loyalty-ui/${target}`);
      await settle(page);
      await page.screenshot({ path: path.join(out, `${name}-${size}.png`) });
    }
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/DE\/de\/myaccount$/);
    await settle(page);
    await page.screenshot({ path: path.join(out, `account-home-${size}.png`) });
    await page.goto(`${baseUrl}/no-such-page`);
    await settle(page);
    await page.screenshot({ path: path.join(out, `not-found-${size}.png`) });
    await context.close();

    const newcomer = await browser.newContext({ viewport });
    const signInPage = await newcomer.newPage();
    await signInPage.goto(`${baseUrl}/?locale=de-DE`);
    await signInPage.waitForURL(/\/auth\/realms\/customer\//);
    await signInPage.screenshot({ path: path.join(out, `sign-in-${size}.png`) });
    await newcomer.close();

    const visitor = await browser.newContext({ viewport });
    const demo = await visitor.newPage();
    await demo.goto(`${baseUrl}/customer/loyalty-ui/demo?locale=en`);
    await settle(demo);
    await demo.screenshot({ path: path.join(out, `loyalty-demo-${size}.png`) });
    await visitor.close();
  }
  console.log(`Screenshots written to ${path.relative(process.cwd(), out)}/`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
