import { expect, test, type Page } from '@playwright/test';
import { routes } from '../../apps/web/src/config/routes.js';
import {
  DEMO_PASSWORD,
  exclusively,
  fill,
  loginTexts,
  openSignedIn,
  signInOnLoginPage,
  texts,
} from './support.js';

// Issue 8: a password change, sign-out, sign-in with the new password works and with the old one is
// refused. demo.dk is the customer; every spec that signs in as demo.dk takes the same lock, as the
// password (and the sessions a change ends) are shared state.
const email = 'demo.dk@example.com';
const t = texts('da');
const newPassword = 'Fjord-Regn-2026!';

async function openPasswordPage(page: Page): Promise<void> {
  await page.goto(routes.account.password.build('DK', 'da'));
  await expect(page.getByRole('heading', { level: 1, name: t['password-title'] })).toBeVisible();
}

async function changePassword(page: Page, from: string, to: string): Promise<void> {
  await page.locator('#password-passwordOld').fill(from);
  await page.locator('#password-password').fill(to);
  const submit = page.getByRole('button', { name: t['password-submit'], exact: true });
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: t['password-saved']! })).toBeVisible();
  // The button kept the focus through the save (a disabled one drops it to the page).
  await expect(submit).toBeFocused();
}

test('a changed password signs in, the old one no longer does', async ({ page }) => {
  await exclusively(email, async () => {
    await openSignedIn(page, email);
    await openPasswordPage(page);
    // In Danish, checked before sending: a password too short for the served policy is not sent.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') sent.push(new URL(request.url()).pathname);
    });
    const fresh = page.getByLabel(new RegExp(`^${t['password-new']}`));
    await page.getByLabel(new RegExp(`^${t['password-old']}`)).fill(DEMO_PASSWORD);
    await fresh.fill('kort');
    // "Show password" is an icon button inside the field, named in Danish.
    const show = page.locator('#password-password + button');
    await expect(show).toHaveAccessibleName(t['password-show']!);
    await show.click();
    await expect(fresh).toHaveAttribute('type', 'text');
    await expect(show).toHaveAccessibleName(t['password-hide']!);
    await expect(
      page
        .locator('#password-policy li')
        .filter({ hasText: fill(t['password-policy-rangelength'], { min: 10 }) }),
    ).toContainText(`(${t['password-policy-unmet']})`);
    await page.getByRole('button', { name: t['password-submit'], exact: true }).click();
    await expect(fresh).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(fill(t['password-rule-rangelength'], { min: 10, max: 128 }))).toBeVisible();
    expect(sent).toEqual([]);

    let changed = false;
    try {
      await changePassword(page, DEMO_PASSWORD, newPassword);
      changed = true;

      await page.getByRole('button', { name: t['sign-out'], exact: true }).click();
      await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
      // The sign-in page speaks the signed-out customer's language (issue 17).
      const login = loginTexts('da');
      await signInOnLoginPage(page, email, DEMO_PASSWORD, 'da');
      await expect(page.getByRole('alert')).toHaveText(login.invalidCredentials!);

      await page.getByLabel(login.passwordLabel!, { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: login.submit, exact: true }).click();
      await expect(page).toHaveURL(/\/DK\/da\/myaccount$/);
    } finally {
      // The next spec signs in with the demo password again.
      if (changed) {
        await openPasswordPage(page);
        await changePassword(page, newPassword, DEMO_PASSWORD);
      }
    }
  });
});
