import { expect, test, type Page } from '@playwright/test';
import { routes } from '../../apps/web/src/config/routes.js';
import { DEMO_PASSWORD, exclusively, openSignedIn, signInOnLoginPage, texts } from './support.js';

// Issue 8: a password change, sign-out, sign-in with the new password works and with the old one is
// refused. demo.dk is the customer; every spec that signs in as demo.dk takes the same lock, as the
// password (and the sessions a change ends) are shared state.
const email = 'demo.dk@example.com';
const t = texts('da');
const newPassword = 'Fjord-Regn-2026!';

async function changePassword(page: Page, from: string, to: string): Promise<void> {
  await page.goto(routes.account.password.build('DK', 'da'));
  await page.locator('#password-passwordOld').fill(from);
  await page.locator('#password-password').fill(to);
  await page.getByRole('button', { name: t['password-submit'], exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: t['password-saved']! })).toBeVisible();
}

test('a changed password signs in, the old one no longer does', async ({ page }) => {
  await exclusively(email, async () => {
    await openSignedIn(page, email);
    let changed = false;
    try {
      await changePassword(page, DEMO_PASSWORD, newPassword);
      changed = true;

      await page.getByRole('button', { name: t['sign-out'], exact: true }).click();
      await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
      await signInOnLoginPage(page, email, DEMO_PASSWORD);
      await expect(page.getByRole('alert')).toHaveText(/e-mail or password is incorrect/i);

      await page.getByLabel('Password').fill(newPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/DK\/da\/myaccount$/);
    } finally {
      // The next spec signs in with the demo password again.
      if (changed) await changePassword(page, newPassword, DEMO_PASSWORD);
    }
  });
});
