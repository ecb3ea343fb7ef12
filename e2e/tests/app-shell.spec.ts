import { expect, test } from '@playwright/test';
import { injectFault, openSignedIn, signInOnLoginPage, texts } from './support.js';

const loginStatusPath = '/api/customer/cuda/customer/v2/login/own/status';

test.describe('the application shell', () => {
  test('the error banner appears when the API answers 500, and Retry recovers', async ({
    page,
  }, testInfo) => {
    const [email, name] =
      testInfo.project.name === 'phone'
        ? ['demo.hu@example.com', 'Bence Nagy']
        : ['demo.dk@example.com', 'Freja Jensen'];
    // The customer (and so their language) is not known yet: the shell speaks the default English.
    const en = texts('en');
    await page.goto('/');
    await injectFault(page, { pathPrefix: loginStatusPath, status: 500, times: 1 });
    await signInOnLoginPage(page, email);

    // The error page (an illustration) hides the view.
    const banner = page.getByRole('alert');
    await expect(banner).toContainText(en['error-banner-title']!);
    await expect(page.getByRole('img', { name: en['error-page-label'] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toHaveCount(0);

    // The fault was for one request only: Retry reloads the page and the account shows.
    await banner.getByRole('button', { name: en['error-banner-confirm'] }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('when the texts cannot be loaded, the banner still shows its built-in default texts', async ({
    page,
  }) => {
    await injectFault(page, { pathPrefix: '/api/core-web/content/contentCollection/', status: 503 });
    await page.goto('/');
    await signInOnLoginPage(page, 'demo.it@example.com');
    const banner = page.getByRole('alert');
    await expect(banner).toContainText('Ooops. Looks like we goofed off...');
    await expect(banner.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  test('a spinner shows while the app loads', async ({ page }) => {
    await page.route('**/config.json', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
  });

  test('the payment marker in the address sends the browser to the payment profiles page', async ({
    page,
  }) => {
    await page.goto('/#mobile-webview-payment');
    await expect(page).toHaveURL(/\/web\/payment\/customer\/payment-profiles\/$/);
  });

  test('an unknown address inside the app goes to the start, which leads to the account', async ({
    page,
  }) => {
    await openSignedIn(page, 'demo.nl@example.com');
    // Unknown addresses inside the loyalty app go to the loyalty start instead (loyalty-entry.spec.ts).
    await page.goto('/NL/nl/myaccount/no-such-page');
    await expect(page).toHaveURL(/\/NL\/nl\/myaccount$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Noor de Vries' })).toBeVisible();
  });
});
