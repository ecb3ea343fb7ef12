import { expect, test } from '@playwright/test';
import { apiPaths, securityErrorCodes } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath } from './outbox.js';
import { injectFault, loginTexts, newCustomer, openSignedIn, texts } from './support.js';

// Issue 18 §2 and §5 (docs/product/security.md#forgot-password, #step-up): flows whose steps do not
// change with the screen, run at phone size (playwright.config.ts, flowsAtPhoneSize). Each test has a
// customer of its own (German), since a reset ends every session.
const t = texts('de');

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

test('step-up: an old sign-in sends the customer through the sign-in and back to what they typed', async ({
  page,
  request,
}) => {
  const email = await newCustomer(request, 'DE');
  await openSignedIn(page, email);
  await page.goto(routes.account.profile.build('DE', 'de'));
  await expect(page.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
  const field = page.getByRole('textbox', { name: new RegExp(`^${t['profile-field-email']}`) });
  const next = email.replace('e2e-', 'e2e-new-');
  await field.fill(next);

  // The server's answer to a sign-in older than RECENT_SIGN_IN_SECONDS (its check is the server
  // tests'; here the answer comes once from the test hook, as the server would give it).
  await injectFault(page, {
    pathPrefix: apiPaths.personalData,
    method: 'PUT',
    status: 403,
    code: securityErrorCodes.recentSignInRequired,
    times: 1,
  });
  // The authorization request asks for a fresh sign-in (max_age=0): the password is asked although
  // the browser has a session.
  const authorize = page.waitForRequest(
    (r) => r.url().includes('/auth/realms/customer/') && new URL(r.url()).searchParams.get('max_age') === '0',
  );
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  await authorize;
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  await page.locator('#email').fill(email);
  await page.locator('#password').fill('Demo-2026!');
  await page.locator('form button[type="submit"]').click();

  // Back on the same form with what was typed; the save goes through.
  await expect(page).toHaveURL(/\/DE\/de\/myaccount\/profile$/);
  await expect(field).toHaveValue(next);
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  await expect(page.getByRole('status').filter({ hasText: t['profile-saved']! })).toBeVisible();
});
