import { expect, test } from '@playwright/test';
import { routes } from '../../apps/web/src/config/routes.js';
import { addVirtualAuthenticator, fill, loginTexts, newCustomer, openSignedIn, texts } from './support.js';

// Issue 18 §6 (docs/product/security.md#passkeys): a passkey added from the security page with
// Chromium's virtual authenticator (DevTools protocol; user verification, discoverable credentials),
// listed with its name, when it was added and last used, renamed, used to sign in through the
// browser's autofill and with the sign-in page's button, and removed. Both sizes; a customer of the test's own (German).
const t = texts('de');

test('add a passkey from the security page, rename it, sign in with it, remove it', async ({
  page,
  request,
}) => {
  const email = await newCustomer(request, 'DE');
  await addVirtualAuthenticator(page);
  await openSignedIn(page, email);

  await page.goto(routes.account.security.build('DE', 'de'));
  await page.getByRole('link', { name: t['security-passkeys-link'] }).click();
  await expect(page).toHaveURL(/\/DE\/de\/myaccount\/security\/passkeys$/);
  await expect(page.getByRole('heading', { level: 1, name: t['passkeys-title'] })).toBeVisible();
  await expect(page.getByText(t['passkeys-empty']!)).toBeVisible();

  // Add: the browser's dialog is the virtual authenticator's, which says yes.
  await page.getByRole('button', { name: t['passkeys-add'] }).click();
  const item = page.locator('.passkeys__item');
  await expect(item).toHaveCount(1);
  const name = (await item.getByRole('heading', { level: 3 }).textContent())!;
  await expect(page.getByRole('status')).toHaveText(fill(t['passkeys-added'], { name }));
  await expect(item).toContainText(t['passkeys-added-at']!);
  await expect(item).toContainText(t['passkeys-never-used']!);

  // Rename.
  await item.getByRole('button', { name: fill(t['passkeys-rename-named'], { name }) }).click();
  await item.getByLabel(new RegExp(`^${t['passkeys-name']}`)).fill('Mein Laptop');
  await item.getByRole('button', { name: t['passkeys-rename-save'] }).click();
  await expect(page.getByRole('status')).toHaveText(fill(t['passkeys-renamed'], { name: 'Mein Laptop' }));
  await expect(item.getByRole('heading', { level: 3 })).toHaveText('Mein Laptop');

  // Sign out: the sign-in page offers the passkey through the browser's autofill (conditional
  // mediation); the virtual authenticator picks it as the customer would from the list.
  const signOut = () => page.getByRole('button', { name: t['sign-out'], exact: true }).click();
  const passkeyPosted = () =>
    page.waitForRequest((r) => r.method() === 'POST' && (r.postData() ?? '').startsWith('credential='));
  const autofilled = passkeyPosted();
  await signOut();
  await autofilled;
  await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
  await expect(page.getByRole('button', { name: t['sign-out'], exact: true })).toBeVisible();

  // A browser without autofill for passkeys: the sign-in page's button (in German now).
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  await signOut();
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  const pressed = passkeyPosted();
  await page.getByRole('button', { name: loginTexts('de').passkeyButton }).click();
  await pressed;
  await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
  await page.goto(routes.account.passkeys.build('DE', 'de'));
  await expect(item).toHaveCount(1);
  await expect(item).not.toContainText(t['passkeys-never-used']!);
  await expect(item).toContainText(t['passkeys-last-used']!);

  // Remove, after the confirmation (the passkey sign-in counts as recent).
  await item.getByRole('button', { name: fill(t['passkeys-remove-named'], { name: 'Mein Laptop' }) }).click();
  const dialog = page.getByRole('dialog', { name: t['passkeys-remove-title'] });
  await dialog.getByRole('button', { name: t['passkeys-remove-confirm'] }).click();
  await expect(page.getByRole('status')).toHaveText(fill(t['passkeys-removed'], { name: 'Mein Laptop' }));
  await expect(item).toHaveCount(0);
  await expect(page.getByText(t['passkeys-empty']!)).toBeVisible();
});
