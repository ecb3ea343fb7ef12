import { expect, test, type Page } from '@playwright/test';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { openSignedIn, texts } from './support.js';

// Issue 17: what a signed-in customer sees when the network goes (items 7 and 8).

const t = texts('de');
const email = 'demo.de@example.com';

const errorIllustration = (page: Page) => page.getByRole('img', { name: t['error-page-label'] });
const retryButton = (page: Page) =>
  page.getByRole('alert').getByRole('button', { name: t['error-banner-confirm'] });

test('a page whose code cannot load shows the error page with Retry in every area; Retry loads it', async ({
  page,
}) => {
  await openSignedIn(page, email);
  const home = page.getByRole('heading', { level: 1 });
  const homeName = await home.textContent();
  // Every script from now on fails, as when the network is gone after sign-in.
  await page.route('**/*.js', (route) => route.abort('internetdisconnected'));

  const areas = [
    page.getByRole('navigation').getByRole('link', { name: t['nav-loyalty'] }),
    ...(['profile', 'password', 'mobile', 'privacy', 'payment'] as const).map((area) =>
      page.getByRole('link', { name: new RegExp(`^${t[`account-menu-${area}-title`]}`) }),
    ),
  ];
  for (const link of areas) {
    await link.click();
    // Not an empty frame: the shell's error page and its Retry.
    await expect(errorIllustration(page)).toBeVisible();
    await expect(retryButton(page)).toBeVisible();
    // Back home (its code is loaded; the overlay leaves only Retry on the page): the error goes.
    await page.goBack();
    await expect(home).toHaveText(homeName!);
    await expect(errorIllustration(page)).toHaveCount(0);
  }

  // With the scripts back, Retry loads the page's code in place (no reload of the app).
  await areas[1]!.click();
  await expect(retryButton(page)).toBeVisible();
  await page.unroute('**/*.js');
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => navigations.push(frame.url()));
  await retryButton(page).click();
  await expect(page.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
  await expect(errorIllustration(page)).toHaveCount(0);
  expect(navigations).toEqual([]);
});

test('a page whose code could not load comes back by itself when the connection returns', async ({
  page,
  context,
}) => {
  await openSignedIn(page, email);
  await context.setOffline(true);
  await page.getByRole('link', { name: new RegExp(`^${t['account-menu-password-title']}`) }).click();
  await expect(errorIllustration(page)).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('heading', { level: 1, name: t['password-title'] })).toBeVisible();
  await expect(errorIllustration(page)).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a save while offline says it was not sent, keeps the input, and is not sent later', async ({
  page,
  context,
}) => {
  await openSignedIn(page, email);
  await page.getByRole('link', { name: new RegExp(`^${t['account-menu-profile-title']}`) }).click();
  const firstName = page.getByRole('textbox', { name: new RegExp(`^${t['profile-field-firstName']}`) });
  await expect(firstName).toBeEnabled();
  // Saves that reached the server (the attempt made offline fails in the browser, unanswered).
  const saves: string[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'PUT' && new URL(request.url()).pathname === apiPaths.personalData)
      saves.push(request.url());
  });

  await context.setOffline(true);
  await firstName.fill('Offlinia');
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  await expect(page.getByText(t['account-save-offline']!)).toBeVisible();
  await expect(firstName).toHaveValue('Offlinia');
  await expect(page.getByText(t['profile-saved']!)).toHaveCount(0);

  // The save failed for good: nothing goes out once the connection is back.
  await context.setOffline(false);
  await page.waitForTimeout(1500);
  expect(saves).toEqual([]);
  await expect(firstName).toHaveValue('Offlinia');
});

test('a profile that fails to load on the server says so and offers Retry', async ({ page }) => {
  await openSignedIn(page, email);
  let failure: 'server' | 'network' | null = 'server';
  await page.route(`**${apiPaths.personalData}`, (route) => {
    if (route.request().method() !== 'GET' || failure === null) return route.fallback();
    return failure === 'server'
      ? route.fulfill({ status: 500, json: { status: 500, code: 'INTERNAL', message: 'boom' } })
      : route.abort('internetdisconnected');
  });
  await page.getByRole('link', { name: new RegExp(`^${t['account-menu-profile-title']}`) }).click();
  const panel = page.getByRole('alert').filter({ hasText: t['load-error-server'] });
  await expect(panel).toBeVisible();
  await expect(panel).not.toContainText(t['load-error-offline']!);
  await expect(panel.getByRole('img', { name: t['error-page-label'] })).toBeVisible();

  // No answer at all is the connection's fault, and says so.
  failure = 'network';
  await panel.getByRole('button', { name: t['error-banner-confirm'] }).click();
  const offline = page.getByRole('alert').filter({ hasText: t['load-error-offline'] });
  await expect(offline).toBeVisible();

  failure = null;
  await offline.getByRole('button', { name: t['error-banner-confirm'] }).click();
  await expect(
    page.getByRole('textbox', { name: new RegExp(`^${t['profile-field-firstName']}`) }),
  ).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(page.url()).toContain(`${appPaths.accountHome('DE', 'de')}/profile`);
});
