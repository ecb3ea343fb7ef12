import { expect, test } from '@playwright/test';
import { newestLinkPath } from './outbox.js';
import { loginTexts, newCustomer } from './support.js';

// Issue 18 §2 (docs/product/security.md#forgot-password; step-up, §5, is step-up.spec.ts): flows whose steps do not
// change with the screen, run at phone size (playwright.config.ts, flowsAtPhoneSize). Each test has a
// customer of its own (German), since a reset ends every session.
test('forgot password: the same answer for any address, the e-mailed link, a new password, signed in', async ({
  page,
  request,
}) => {
  const email = await newCustomer(request, 'DE');
  const en = loginTexts('en');
  const forgot = async (address: string) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
    await page.getByRole('link', { name: en.forgotLink }).click();
    await expect(page.getByRole('heading', { level: 1, name: en.forgotTitle })).toBeVisible();
    await page.getByLabel(en.emailLabel!).fill(address);
    await page.getByRole('button', { name: en.forgotSubmit }).click();
    await expect(page.getByRole('heading', { level: 1, name: en.forgotSentTitle })).toBeVisible();
    // The answer names the typed address only; nothing else differs.
    return (await page.getByRole('status').textContent())!.replace(address, '{email}');
  };
  const unknown = await forgot(`nobody-${Date.now()}@example.com`);
  const known = await forgot(email);
  expect(known).toBe(unknown);
  expect(known).toBe(en.forgotSentText!.replace('{minutes}', '30'));

  // The link of the e-mail (in the customer's language), opened in this browser.
  const link = await newestLinkPath(request, email, 'password-reset');
  expect(link).toContain('lang=de');
  await page.goto(link);
  const de = loginTexts('de');
  await expect(page.getByRole('heading', { level: 1, name: de.resetTitle })).toBeVisible();
  const password = page.getByLabel(de.newPasswordLabel!, { exact: true });
  // The served rules, checked on the server: too short is refused, in German.
  await password.fill('kurz');
  await page.getByRole('button', { name: de.resetSubmit }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#password-error')).not.toBeEmpty();
  await password.fill('Neues-Passwort-2026!');
  await page.getByRole('button', { name: de.resetSubmit }).click();
  // Signed in on this browser, on the account home.
  await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The link worked once.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: de.linkInvalidTitle })).toBeVisible();
});
