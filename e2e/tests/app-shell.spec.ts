import { expect, test } from '@playwright/test';
import { clearFaults, injectFault, openSignedIn, signInOnLoginPage } from './support.js';

const loginStatusPath = '/api/customer/cuda/customer/v2/login/own/status';

test.describe('the application shell', () => {
  test.afterEach(async ({ request }) => clearFaults(request));

  test('the error banner appears when the API answers 500, and Retry recovers', async ({
    page,
    request,
  }, testInfo) => {
    // Each project signs in its own customer so the two runs cannot disturb each other's faults.
    const email = testInfo.project.name === 'phone' ? 'demo.hu@example.com' : 'demo.dk@example.com';
    const name = testInfo.project.name === 'phone' ? 'Bence Nagy' : 'Freja Jensen';
    await page.goto('/');
    await injectFault(request, { pathPrefix: loginStatusPath, status: 500, times: 1 });
    await signInOnLoginPage(page, email);

    const banner = page.getByRole('alert').filter({ hasText: /./ }).first();
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('button').first()).toBeVisible();
    await expect(page.getByRole('img', { name: /./ }).first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toHaveCount(0);

    // The fault was for one request only: Retry reloads the page and the account shows.
    await banner.getByRole('button').first().click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('the error banner uses the default English texts before a customer is known', async ({
    page,
    request,
  }) => {
    await injectFault(request, { pathPrefix: '/api/core-web/content/contentCollection/', status: 503 });
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
    await page.goto('/customer/loyalty-ui/no-such-page');
    await expect(page).toHaveURL(/\/NL\/nl\/myaccount$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Noor de Vries' })).toBeVisible();
  });
});
