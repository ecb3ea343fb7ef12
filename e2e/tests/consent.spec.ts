import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { cspViolations, loyaltyUrl, signInOnLoginPage, texts } from './support';

// This spec starts without a consent choice (the others start with everything denied).
test.use({ storageState: { cookies: [], origins: [] } });

const en = texts('en');
const de = texts('de');

/** Every request the page makes to the tag manager, the SDK chunk and the tunnel. */
function watch(page: Page) {
  const seen = { tagManager: [] as string[], sdkChunk: [] as string[], envelopes: [] as Request[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === appPaths.devTagManagerScript) seen.tagManager.push(url.search);
    if (/error-reporting-sdk[^/]*\.js$/.test(url.pathname)) seen.sdkChunk.push(url.pathname);
    if (url.pathname === apiPaths.errorReportEnvelope) seen.envelopes.push(request);
  });
  return seen;
}

const banner = (page: Page) => page.getByRole('region', { name: en['consent-banner-title'] });

async function openDemo(page: Page, query = '') {
  await page.goto(`${loyaltyUrl('/demo', 'en')}${query}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** An error nobody catches, thrown in the page. */
const throwInPage = (page: Page, message: string) =>
  page.evaluate((m) => {
    setTimeout(() => {
      throw new Error(m);
    });
  }, message);

test('deny all: no tag manager request, no SDK chunk, no envelope even after an error', async ({ page }) => {
  const seen = watch(page);
  await openDemo(page);
  await expect(banner(page)).toBeVisible();
  await page.getByRole('button', { name: en['consent-deny-all'] }).click();
  await expect(banner(page)).toBeHidden();
  await throwInPage(page, 'e2e error without consent');
  await page.waitForTimeout(1500);
  expect(seen).toEqual({ tagManager: [], sdkChunk: [], envelopes: [] });
  const cookie = (await page.context().cookies()).find((c) => c.name === 'roadpass_consent');
  expect(cookie).toMatchObject({ value: 'a0e0', path: '/', sameSite: 'Lax' });
  // One day (docs/product/constants.md#business-constants), give or take the test's own time.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(86_000_000);
});

test('accept all: the tag manager and the SDK load, and an error reaches the server as an envelope', async ({
  page,
}) => {
  const seen = watch(page);
  await openDemo(page);
  expect(seen.tagManager).toEqual([]);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await expect
    .poll(() => page.evaluate(() => (window as { roadpassTagManagerLoads?: number }).roadpassTagManagerLoads))
    .toBe(1);
  expect(seen.tagManager).toEqual(['?id=GTM-E2E']);
  await expect.poll(() => seen.sdkChunk.length).toBeGreaterThan(0);
  const message = `e2e error with consent ${Date.now()}`;
  // The chunk may still be starting when its request is seen: the error is thrown again until the
  // SDK, once running, sends it (a customer's later errors are reported the same way).
  await expect
    .poll(
      async () => {
        await throwInPage(page, message);
        return seen.envelopes.length;
      },
      { intervals: [500], timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  expect((await seen.envelopes[0]!.response())?.status()).toBe(200);
  const devPage = await page.request.get(appPaths.devErrorReports);
  expect(await devPage.text()).toContain(message);
});

test('analytics withdrawn in the privacy settings reloads the page', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await expect
    .poll(() => page.evaluate(() => (window as { roadpassTagManagerLoads?: number }).roadpassTagManagerLoads))
    .toBe(1);
  await page.getByRole('button', { name: en['consent-privacy-settings'] }).click();
  await page.getByRole('switch', { name: en['consent-analytics'] }).uncheck();
  const reload = page.waitForEvent('load');
  await page.getByRole('button', { name: en['consent-save'] }).click();
  await reload;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // After the reload: no tag manager, error reporting still on.
  await page.waitForTimeout(1000);
  expect(
    await page.evaluate(() => (window as { roadpassTagManagerLoads?: number }).roadpassTagManagerLoads),
  ).toBeUndefined();
  expect((await page.context().cookies()).find((c) => c.name === 'roadpass_consent')?.value).toBe('a0e1');
});

test('tracking opt-out: neither loads, even after accept all', async ({ page }) => {
  const seen = watch(page);
  await openDemo(page, '&tracking_opt_out=true');
  await expect(banner(page)).toBeVisible();
  await expect(page.getByText(en['consent-opt-out-note']!)).toBeVisible();
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await throwInPage(page, 'e2e error with opt-out');
  await page.waitForTimeout(1500);
  expect(seen).toEqual({ tagManager: [], sdkChunk: [], envelopes: [] });
});

test('the banner in German works by keyboard and fits 320 px', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(loyaltyUrl('/demo', 'de'));
  const region = page.getByRole('region', { name: de['consent-banner-title'] });
  await expect(region).toBeVisible();
  await expect(region).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: de['consent-accept-all'] })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test('after the choice the focus goes to the main content, or back to "Privacy settings" that opened it', async ({
  page,
}) => {
  await openDemo(page);
  await expect(banner(page)).toBeFocused();
  await page.getByRole('button', { name: en['consent-deny-all'] }).press('Enter');
  await expect(banner(page)).toBeHidden();
  // Not the page itself (document.body): the keyboard goes on from the content.
  await expect(page.locator('main#main')).toBeFocused();

  const settings = page.getByRole('button', { name: en['consent-privacy-settings'] });
  await settings.press('Enter');
  await expect(banner(page)).toBeFocused();
  await page.getByRole('button', { name: en['consent-save'] }).press('Enter');
  await expect(banner(page)).toBeHidden();
  await expect(settings).toBeFocused();
});

test('the banner and its choices pass axe (WCAG 2.1 AA)', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-customize'] }).click();
  await expect(page.getByRole('switch', { name: en['consent-analytics'] })).toBeVisible();
  const result = await new AxeBuilder({ page })
    .include('.consent')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

const reportBug = (page: Page) => page.getByRole('button', { name: en['feedback-report-bug'] });

test('with error-reporting consent, "Report a Bug" sends a feedback envelope through the tunnel and thanks', async ({
  page,
}) => {
  const seen = watch(page);
  const csp = cspViolations(page);
  await openDemo(page);
  await expect(reportBug(page)).toHaveCount(0);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await reportBug(page).click();
  const dialog = page.getByRole('dialog', { name: en['feedback-report-bug'] });
  await expect(dialog).toBeVisible();
  // Focus in the form; nothing typed: the message is named as missing.
  await expect(dialog.getByRole('textbox', { name: en['feedback-name-label'] })).toBeFocused();
  await dialog.getByRole('button', { name: en['feedback-submit'] }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    `Please enter in the following required fields: ${en['feedback-message-label']}`,
  );
  const axe = await new AxeBuilder({ page })
    .include('.feedback-dialog')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  const message = `e2e feedback ${Date.now()}`;
  await dialog.getByRole('textbox', { name: en['feedback-name-label'] }).fill('  Erika Muster  ');
  await dialog
    .getByRole('textbox', { name: new RegExp(en['feedback-message-label']!) })
    .fill(`  ${message}  `);
  const sent = page.waitForRequest(
    (request) =>
      new URL(request.url()).pathname === apiPaths.errorReportEnvelope &&
      (request.postData() ?? '').includes('"type":"feedback"'),
  );
  await dialog.getByRole('button', { name: en['feedback-submit'] }).click();
  const envelope = await sent;
  expect((await envelope.response())?.status()).toBe(200);
  const [, itemHeader, item] = envelope.postData()!.split('\n');
  expect(JSON.parse(itemHeader!)).toMatchObject({ type: 'feedback' });
  expect(JSON.parse(item!)).toMatchObject({
    type: 'feedback',
    contexts: { feedback: { message, name: 'Erika Muster' } },
  });

  await expect(dialog).toBeHidden();
  const thanks = page.getByRole('button', { name: en['feedback-success'] });
  await expect(thanks).toBeVisible();
  await expect(reportBug(page)).toBeFocused();
  await thanks.click();
  await expect(thanks).toBeHidden();
  const devPage = await page.request.get(appPaths.devErrorReports);
  expect(await devPage.text()).toContain(message);
  expect(seen.envelopes.length).toBeGreaterThan(0);
  expect(csp).toEqual([]);
});

/** The next envelope to the tunnel that carries an attachment. */
const attachmentEnvelope = (page: Page) =>
  page.waitForRequest(
    (request) =>
      new URL(request.url()).pathname === apiPaths.errorReportEnvelope &&
      (request.postDataBuffer()?.includes('"type":"attachment"') ?? false),
  );

/** A real 1×1 PNG, as small as a picture gets. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

test('"Report a Bug" with a screenshot: sent as an attachment of the feedback envelope, kept at the server', async ({
  page,
}) => {
  const csp = cspViolations(page);
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await reportBug(page).click();
  const dialog = page.getByRole('dialog', { name: en['feedback-report-bug'] });
  const message = `e2e screenshot ${Date.now()}`;
  await dialog.getByRole('textbox', { name: new RegExp(en['feedback-message-label']!) }).fill(message);
  await dialog.getByLabel(en['feedback-screenshot-label']!).setInputFiles({
    name: 'bug.png',
    mimeType: 'image/png',
    buffer: tinyPng,
  });
  // The preview (a data: picture the CSP allows), the name and a way to remove it.
  await expect(dialog.getByText(`bug.png (${tinyPng.length} byte`)).toBeVisible();
  await expect
    .poll(() => dialog.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(1);
  await expect(dialog.getByRole('button', { name: en['feedback-screenshot-remove'] })).toBeVisible();

  const sent = attachmentEnvelope(page);
  await dialog.getByRole('button', { name: en['feedback-submit'] }).click();
  const envelope = await sent;
  expect((await envelope.response())?.status()).toBe(200);
  // The picture's bytes are the envelope's last item, exactly as chosen.
  expect(envelope.postDataBuffer()!.subarray(-tinyPng.length).equals(tinyPng)).toBe(true);
  await expect(page.getByRole('button', { name: en['feedback-success'] })).toBeVisible();

  // At the server: listed with its type and size beside the feedback, and served as sent.
  const devPage = await (await page.request.get(appPaths.devErrorReports)).text();
  const report = devPage.split('<li><article').find((article) => article.includes(message));
  const listed = /<a href="([^"]+)">bug\.png<\/a> · image\/png · (\d+) bytes/.exec(report ?? '');
  expect(listed?.[2]).toBe(String(tinyPng.length));
  const served = await page.request.get(listed![1]!);
  expect(served.headers()['content-type']).toBe('image/png');
  expect((await served.body()).equals(tinyPng)).toBe(true);
  expect(csp).toEqual([]);
});

test('"Report a Bug" with a phone-sized screenshot: drawn smaller as JPEG to fit, then sent', async ({
  page,
}) => {
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  // A screenshot as a phone saves it: 1 170 × 2 532 PNG, bars, text and a photo, far over the limit.
  const png = Buffer.from(
    await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1170;
      canvas.height = 2532;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#f4f4f8';
      context.fillRect(0, 0, canvas.width, canvas.height);
      for (let y = 0; y < 1200; y += 60) {
        context.fillStyle = `hsl(${y % 360} 60% 40%)`;
        context.font = '40px sans-serif';
        context.fillText(`Line ${y / 60}: 4 500 points, tier Gold, next reward in 3 rentals`, 40, 200 + y);
      }
      const photo = context.createImageData(1170, 1000);
      for (let i = 0; i < photo.data.length; i += 4) {
        const x = (i / 4) % 1170;
        const y = Math.floor(i / 4 / 1170);
        photo.data[i] = (x + Math.random() * 40) % 256;
        photo.data[i + 1] = (y + Math.random() * 40) % 256;
        photo.data[i + 2] = ((x ^ y) + Math.random() * 40) % 256;
        photo.data[i + 3] = 255;
      }
      context.putImageData(photo, 0, 1450);
      return canvas.toDataURL('image/png').split(',')[1]!;
    }),
    'base64',
  );
  expect(png.length).toBeGreaterThan(1_000_000);

  await reportBug(page).click();
  const dialog = page.getByRole('dialog', { name: en['feedback-report-bug'] });
  await dialog.getByRole('textbox', { name: new RegExp(en['feedback-message-label']!) }).fill('Big picture');
  await dialog.getByLabel(en['feedback-screenshot-label']!).setInputFiles({
    name: 'Screenshot 2026-11-26.png',
    mimeType: 'image/png',
    buffer: png,
  });
  // Shown as what will be sent: a JPEG under the limit, no error.
  await expect(dialog.getByText(/^Screenshot 2026-11-26\.jpg \(\d+ kB\)$/)).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  const sent = attachmentEnvelope(page);
  await dialog.getByRole('button', { name: en['feedback-submit'] }).click();
  const envelope = await sent;
  expect((await envelope.response())?.status()).toBe(200);
  const body = envelope.postDataBuffer()!;
  expect(body.includes('"content_type":"image/jpeg"')).toBe(true);
  expect(body.includes('"filename":"Screenshot 2026-11-26.jpg"')).toBe(true);
  // The whole envelope fits the tunnel's 200 kB.
  expect(body.length).toBeLessThan(200_000);
  await expect(page.getByRole('button', { name: en['feedback-success'] })).toBeVisible();
});

test('"Report a Bug" closes with Escape and gives the focus back', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-accept-all'] }).click();
  await reportBug(page).click();
  const dialog = page.getByRole('dialog', { name: en['feedback-report-bug'] });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(reportBug(page)).toBeFocused();
});

test('with error reporting denied there is no "Report a Bug"', async ({ page }) => {
  const seen = watch(page);
  await openDemo(page);
  await page.getByRole('button', { name: en['consent-customize'] }).click();
  await page.getByRole('switch', { name: en['consent-analytics'] }).check();
  await page.getByRole('button', { name: en['consent-save'] }).click();
  await expect(banner(page)).toBeHidden();
  await expect(page.getByRole('button', { name: en['consent-privacy-settings'] })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(reportBug(page)).toHaveCount(0);
  expect(seen.sdkChunk).toEqual([]);
});

// Issue 17, finding 12: the banner looked like a debug box (2 px black frame, square corners, 60 % of
// a phone screen, a button alone on its row in Italian, "(a tag manager)" in its text).
test.describe('the banner is a card of the product at 390 × 844', () => {
  for (const language of ['nl', 'de', 'fr', 'it', 'es', 'hu', 'da', 'en']) {
    test(`in ${language}: at most 40 % of the screen, in line with the content, in plain words`, async ({
      page,
    }) => {
      const t = texts(language);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(loyaltyUrl('/demo', language));
      const region = page.getByRole('region', { name: t['consent-banner-title'] });
      await expect(region).toBeVisible();
      const look = await region.evaluate((banner) => {
        const style = getComputedStyle(banner);
        const box = banner.getBoundingClientRect();
        const main = document.querySelector('main')!;
        const mainStyle = getComputedStyle(main);
        const mainBox = main.getBoundingClientRect();
        const buttons = Array.from(banner.querySelectorAll('button')).map((b) => b.getBoundingClientRect());
        return {
          height: box.height,
          wholeWithoutScrolling: banner.scrollHeight <= banner.clientHeight,
          left: Math.round(box.left),
          right: Math.round(box.right),
          contentLeft: Math.round(mainBox.left + parseFloat(mainStyle.paddingLeft)),
          contentRight: Math.round(mainBox.right - parseFloat(mainStyle.paddingRight)),
          rounded: parseFloat(style.borderTopLeftRadius) >= 8,
          frame: parseFloat(style.borderTopWidth),
          // Accept all and Deny all share one row.
          firstTwoInOneRow: Math.round(buttons[0]!.top) === Math.round(buttons[1]!.top),
        };
      });
      expect(look.height).toBeLessThanOrEqual(0.4 * 844);
      expect(look.wholeWithoutScrolling).toBe(true);
      expect(look).toMatchObject({
        left: look.contentLeft,
        right: look.contentRight,
        rounded: true,
        frame: 0,
        firstTwoInOneRow: true,
      });
      await expect(region).not.toContainText(/tag[- ]?manager|balises|címkekezel|\(/i);
    });
  }
});

// Issue 17, finding 21: with the banner open, Tab stopped on links hidden under it (WCAG 2.4.11).
test('with the banner open, nothing the keyboard focuses is under it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await signInOnLoginPage(page, 'demo.it@example.com');
  const it = texts('it');
  const region = page.getByRole('region', { name: it['consent-banner-title'] });
  await expect(region).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // From the start of the page through every control of the page and its footer, up to the banner.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('main').focus();
  const covered: string[] = [];
  for (let step = 0; step < 60; step++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const focused = document.activeElement as HTMLElement | null;
      const banner = document.querySelector('.consent')!;
      if (!focused || banner.contains(focused)) return null;
      const box = focused.getBoundingClientRect();
      const top = banner.getBoundingClientRect().top;
      return {
        name: `${focused.tagName} ${focused.textContent?.trim().slice(0, 40)}`,
        under: box.bottom > top,
      };
    });
    if (!where) break;
    if (where.under) covered.push(where.name);
  }
  expect(covered).toEqual([]);
  await expect(region).toBeVisible();
});
