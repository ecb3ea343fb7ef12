#!/usr/bin/env node
// Screenshots of every page of the app at phone (390×844) and desktop (1280×800) width, taken from the
// built app on a fresh embedded database: the account home and its pages, every loyalty screen
// (a member's, a newcomer's onboarding, the public demo), the pages opened from e-mail links, the
// sign-in and forgot-password pages and the not-found page.
//
// Usage: npm run build && npm run screenshots
//   default: German (demo.de@example.com) into docs/screenshots/ (the README shows the account home);
//   SCREENSHOT_LANGUAGES=all (or e.g. de,hu,es) and SCREENSHOT_DIR=/tmp/shots: one folder per language,
//   to look at every page in every language before a change lands (issue 17).
/* global document -- page.evaluate callbacks run in the browser */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const port = 20000 + Math.floor(Math.random() * 1000);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-screenshots-'));

/** Who reads each language: a demo customer whose country speaks it (docs/product/demo-data.md). */
const readers = {
  de: { email: 'demo.de@example.com', country: 'DE' },
  nl: { email: 'demo.nl@example.com', country: 'NL' },
  fr: { email: 'demo.fr@example.com', country: 'FR' },
  it: { email: 'demo.it@example.com', country: 'IT' },
  es: { email: 'demo.es@example.com', country: 'ES' },
  hu: { email: 'demo.hu@example.com', country: 'HU' },
  da: { email: 'demo.dk@example.com', country: 'DK' },
  en: { email: 'demo.at@example.com', country: 'AT' },
};
const asked = process.env.SCREENSHOT_LANGUAGES ?? 'de';
const languages = asked === 'all' ? Object.keys(readers) : asked.split(',').map((l) => l.trim());
for (const language of languages)
  if (!readers[language])
    throw new Error(`No reader for language ${language}: one of ${Object.keys(readers)}`);
const outRoot = process.env.SCREENSHOT_DIR ?? path.join(root, 'docs', 'screenshots');
const outDir = (language) =>
  asked === 'de' && !process.env.SCREENSHOT_DIR ? outRoot : path.join(outRoot, language);

const accountPages = [
  'profile',
  'password',
  'mobile',
  'privacy',
  'payment',
  'security',
  'security/activity',
  'security/passkeys',
  'close',
];
/** The rewards of the programme, each with the countries that offer it. */
const rewards = JSON.parse(readFileSync(path.join(root, 'content/loyalty/programme.json'), 'utf8')).rewards;
/** The partner reward with a code (Bike rides) where the country offers it, else its first reward. */
const rewardShownIn = (country) => {
  const offered = rewards.filter((r) => r.legalEntities.includes(country));
  return (offered.find((r) => r.slug === 'velovia-bike-rides') ?? offered[0]).slug;
};
/**
 * name → loyalty path, for a member of `country` (demo.de is royal gold with partner codes). The reward
 * is one that country offers: another's shows "reward not found" there, rightly (28 Nov: the Italian
 * and Hungarian screenshots showed only that).
 */
const memberScreens = (country) => ({
  'loyalty-status': 'status',
  'loyalty-tier-overview': 'tier-overview',
  'loyalty-reward': `reward/${rewardShownIn(country)}`,
  'loyalty-history': 'history',
  'loyalty-faq': 'faq',
});

async function signIn(page, email) {
  await page.goto(`${baseUrl}/`);
  await page.waitForURL(/\/auth\/realms\/customer\//);
  await page.locator('input[name="username"], input[type="email"]').first().fill(email);
  await page.locator('input[type="password"]').first().fill('Demo-2026!');
  await page.locator('form button[type="submit"]').first().click();
  await page.waitForURL(/\/myaccount$/);
}

/** Waits until the page has settled: no spinner, no skeleton, carousel moved to its initial card. */
async function settle(page) {
  await page.waitForFunction(
    () => !document.querySelector('[aria-busy="true"], .loyalty-skeleton, .spinner'),
  );
  await page.waitForTimeout(1_200);
}

async function shoot(page, dir, name, size, address) {
  if (address) await page.goto(`${baseUrl}${address}`);
  await settle(page);
  await page.screenshot({ path: path.join(dir, `${name}-${size}.png`) });
}

const server = spawnServer(port, { DATA_DIR: dataDir, DATABASE_URL: '' });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...chromiumArgs, '--disable-dev-shm-usage'],
});

try {
  await waitFor(`${baseUrl}/config.json`);
  for (const language of languages) {
    const { email, country } = readers[language];
    const locale = `${language}-${country}`;
    const dir = outDir(language);
    mkdirSync(dir, { recursive: true });
    for (const [size, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ]) {
      // The consent choice is made (all denied) so the banner shows only on its own screenshot.
      const consentCookie = { name: 'roadpass_consent', value: 'a0e0', url: baseUrl };

      const visitor = await browser.newContext({ viewport, locale });
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`${baseUrl}/?locale=${locale}`);
      await visitorPage.waitForURL(/\/auth\/realms\/customer\//);
      await visitorPage.screenshot({ path: path.join(dir, `sign-in-${size}.png`) });
      await visitorPage.locator('a[href*="/forgot-password"]').click();
      await visitorPage.waitForURL(/\/forgot-password/);
      await visitorPage.screenshot({ path: path.join(dir, `forgot-password-${size}.png`) });
      await shoot(
        visitorPage,
        dir,
        'loyalty-demo-consent-banner',
        size,
        `/customer/loyalty-ui/demo?locale=${locale}`,
      );
      await visitor.addCookies([consentCookie]);
      await shoot(visitorPage, dir, 'loyalty-demo', size, `/customer/loyalty-ui/demo?locale=${locale}`);
      await shoot(
        visitorPage,
        dir,
        'unsubscribe-unknown-link',
        size,
        `/newsletter/unsubscribe/unknown-link-00000000000000000000?locale=${locale}`,
      );
      await shoot(
        visitorPage,
        dir,
        'email-confirm-unknown-link',
        size,
        `/email/confirm/unknown-link-00000000000000000000?locale=${locale}`,
      );
      await visitor.close();

      const context = await browser.newContext({ viewport, locale });
      await context.addCookies([consentCookie]);
      const page = await context.newPage();
      await signIn(page, email);
      const home = `/${country}/${language}/myaccount`;
      await shoot(page, dir, 'account-home', size, home);
      for (const name of accountPages)
        await shoot(page, dir, `account-${name.replace('/', '-')}`, size, `${home}/${name}`);
      if (email === 'demo.nl@example.com') {
        await shoot(page, dir, 'loyalty-onboarding', size, '/customer/loyalty-ui/onboarding');
      } else {
        for (const [name, target] of Object.entries(memberScreens(country)))
          await shoot(page, dir, name, size, `/customer/loyalty-ui/${target}`);
      }
      await shoot(page, dir, 'not-found', size, '/no-such-page');
      await context.close();
    }
    console.log(`${language}: screenshots written to ${path.relative(process.cwd(), dir)}/`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
