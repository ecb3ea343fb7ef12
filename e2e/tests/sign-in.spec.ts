import { expect, test } from '@playwright/test';
import { loginTexts, openSignedIn, signInOnLoginPage } from './support.js';

test.describe('signing in through the identity provider', () => {
  test('a customer signs in, sees their own account, and stays signed in on reload', async ({ page }) => {
    await openSignedIn(page, 'demo.de@example.com', '/', { throughLoginPage: true });
    await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dora Demo' })).toBeVisible();
    await expect(page.getByText('demo.de@example.com')).toBeVisible();
    await expect(page.getByText(/Deutschland/)).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dora Demo' })).toBeVisible();
    await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
  });

  test('a wrong password shows a message that does not reveal whether the e-mail exists', async ({
    page,
  }) => {
    await page.goto('/');
    await signInOnLoginPage(page, 'demo.it@example.com', 'not-the-password');
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(/e-mail or password is incorrect/i);
    await expect(page.getByLabel('E-mail')).toHaveValue('demo.it@example.com');

    await page.getByLabel('E-mail').fill('nobody-here@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(/e-mail or password is incorrect/i);
  });

  test('the access token is refreshed in the background without the user noticing', async ({ page }) => {
    const refreshes: number[] = [];
    page.on('response', async (response) => {
      const request = response.request();
      if (
        request.url().endsWith('/protocol/openid-connect/token') &&
        request.postData()?.includes('grant_type=refresh_token')
      ) {
        refreshes.push(response.status());
      }
    });
    // The page's clock runs the renewal timer ahead, so the test does not wait a token's lifetime.
    await page.clock.install();
    await openSignedIn(page, 'demo.es@example.com');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Javier García');
    const tokenBefore = await page.evaluate(() => sessionStorage.getItem('roadpass.token'));

    // The test server issues 20-second access tokens: the app refreshes when one expires.
    await page.clock.runFor(20_000);
    await expect.poll(() => refreshes.length).toBeGreaterThan(0);
    expect(refreshes.every((status) => status === 200)).toBe(true);
    const tokenAfter = await page.evaluate(() => sessionStorage.getItem('roadpass.token'));
    expect(tokenAfter).not.toBe(tokenBefore);

    // Still signed in, with no banner, and the API accepts the new token.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Javier García');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Javier García');
  });

  test('signing out returns to the login page, and the app needs a new sign-in', async ({ page }) => {
    await openSignedIn(page, 'demo.fr@example.com');
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
    // In the signed-out customer's language, not the browser's (issue 17).
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByLabel(loginTexts('fr').passwordLabel!, { exact: true })).toBeVisible();
    await page.goto('/FR/fr/myaccount');
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  });
});

test.describe('the sign-in page speaks the customer’s language', () => {
  test('a visitor asking for ?locale=de-DE signs in on a German page, and can choose another language', async ({
    page,
  }) => {
    await page.goto('/?locale=de-DE');
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Sprache' }).getByRole('link', { name: 'Magyar' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
    await page.getByLabel('E-mail').fill('demo.hu@example.com');
    await page.locator('#password').fill('Demo-2026!');
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/HU\/hu\/myaccount/);
  });
});

test.describe('with the browser set to Danish', () => {
  test.use({ locale: 'da-DK' });

  test('a visitor gets a Danish sign-in page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
    await expect(page.locator('html')).toHaveAttribute('lang', 'da');
  });
});
