import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath, newestPin } from './outbox.js';
import { fill, openSignedIn, texts } from './support.js';
import { PIN_MAX_ATTEMPTS } from '../../apps/server/src/modules/mobile/pin-limits.js';

// Issue 8, the account area in the browser, against the real server. Each project (phone, desktop)
// uses customers of its own, so the two never share a PIN or an unsubscribe link.
const customers = {
  phone: {
    mobile: { email: 'demo.de@example.com', country: 'DE', language: 'de', number: '+4915123456789' },
    unsubscribe: 'demo.fr@example.com',
  },
  desktop: {
    mobile: { email: 'demo.fr@example.com', country: 'FR', language: 'fr', number: '+33612345678' },
    unsubscribe: 'demo.es@example.com',
  },
} as const;

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A label at the start of a name (a required field's name goes on with "(required)"). */
const startsWith = (label: string | undefined) => new RegExp(`^${escaped(label!)}`);

test('the mobile number changes after a wrong PIN and then the right one from the SMS', async ({
  page,
}, testInfo) => {
  const who = customers[testInfo.project.name as keyof typeof customers].mobile;
  const t = texts(who.language);
  await openSignedIn(page, who.email);
  await page.getByRole('link', { name: new RegExp(t['account-menu-mobile-title']!) }).click();
  await expect(page).toHaveURL(routes.account.mobile.build(who.country, who.language));
  await expect(page.getByRole('heading', { level: 1, name: t['mobile-title'] })).toBeVisible();

  const sentAfter = new Date().toISOString();
  await page.getByLabel(t['mobile-new']!).fill(who.number);
  await page.getByRole('button', { name: t['mobile-send-pin'] }).click();
  const pinField = page.getByLabel(t['mobile-pin']!);
  await expect(pinField).toBeVisible();
  await expect(page.getByText(fill(t['mobile-attempts-left'], { attempts: PIN_MAX_ATTEMPTS }))).toBeVisible();
  await expect(page.getByRole('button', { name: t['mobile-resend'] })).toBeDisabled();

  const pin = await newestPin(page.request, who.number, sentAfter);
  const wrong = pin === '000000' ? '111111' : '000000';
  await pinField.fill(wrong);
  await page.getByRole('button', { name: t['mobile-confirm'] }).click();
  await expect(pinField).toHaveAttribute('aria-invalid', 'true');
  const describedBy = await pinField.getAttribute('aria-describedby');
  // The server's own text on the field, with the attempts now left (also shown above the field).
  const left = fill(t['mobile-attempts-left'], { attempts: PIN_MAX_ATTEMPTS - 1 });
  await expect(page.locator(`[id="${describedBy!.split(' ').pop()}"]`)).toContainText(left);
  await expect(page.getByText(left)).toHaveCount(2);

  await pinField.fill(pin);
  await page.getByRole('button', { name: t['mobile-confirm'] }).click();
  await expect(page.getByRole('status')).toHaveText(fill(t['mobile-saved'], { number: who.number }));
  await page.reload();
  await expect(page.getByText(fill(t['mobile-current'], { number: who.number }))).toBeVisible();

  const axe = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // The password and payment pages in the same language (account-password.spec.ts reads the password
  // page in Danish, the test below the payment page in Italian): the password is checked in the
  // browser, with the validators that load after the form, and not sent.
  const passwordChanges: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && new URL(request.url()).pathname === apiPaths.password)
      passwordChanges.push(request.method());
  });
  const menu = page.getByRole('navigation', { name: t['account-menu-title'] });
  await page.getByRole('link', { name: t['account-back'] }).click();
  await menu.getByRole('link', { name: startsWith(t['account-menu-password-title']) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['password-title'] })).toBeVisible();
  const newPassword = page.getByLabel(startsWith(t['password-new']));
  await page.getByLabel(startsWith(t['password-old'])).fill('Not-my-password-1');
  await newPassword.fill('password123');
  const policy = page.locator('#password-policy');
  await expect(policy.getByText(t['password-policy-title']!)).toBeVisible();
  await expect(
    policy.getByRole('listitem').filter({ hasText: fill(t['password-policy-rangelength'], { min: 10 }) }),
  ).toContainText(`(${t['password-policy-met']})`);
  await expect(
    policy.getByRole('listitem').filter({ hasText: t['password-policy-notCommon']! }),
  ).toContainText(`(${t['password-policy-unmet']})`);
  await page.getByRole('button', { name: t['password-submit'], exact: true }).click();
  await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(t['password-rule-notCommon']!)).toBeVisible();
  expect(passwordChanges).toEqual([]);

  await page.getByRole('link', { name: t['account-back'] }).click();
  await menu.getByRole('link', { name: startsWith(t['account-menu-payment-title']) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['payment-list-title'] })).toBeVisible();
  await expect(page.getByText(t['payment-default']!, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: t['payment-manage'] })).toBeVisible();
});

test('the newsletter unsubscribe link works signed out, once', async ({ page }, testInfo) => {
  const email = customers[testInfo.project.name as keyof typeof customers].unsubscribe;
  const path = await newestLinkPath(page.request, email, 'newsletter');
  expect(path.startsWith(appPaths.newsletterUnsubscribe(''))).toBe(true);
  const t = texts('en');
  await page.goto(path);
  await expect(page).toHaveURL(path);
  await page.getByRole('button', { name: t['unsubscribe-button'] }).click();
  await expect(page.getByText(fill(t['unsubscribe-done'], { email }))).toBeVisible();

  await page.goto(path);
  await expect(page.getByText(t['unsubscribe-unknown']!)).toBeVisible();
  // A used link offers nothing to press on the page (the footer's privacy settings stay).
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
});

test('the payment methods show as cards with a way to manage them', async ({ page }) => {
  const t = texts('it');
  await openSignedIn(page, 'demo.it@example.com');
  await page.getByRole('link', { name: new RegExp(t['account-menu-payment-title']!) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['payment-list-title'] })).toBeVisible();
  await expect(page.getByText(fill(t['payment-card-ending'], { last4: '1881' }))).toBeVisible();
  await expect(page.getByText(t['payment-default']!, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: t['payment-manage'] })).toHaveAttribute(
    'href',
    appPaths.paymentProfilesRedirect,
  );
  await page.getByRole('link', { name: t['account-back'] }).click();
  await expect(page).toHaveURL(appPaths.accountHome('IT', 'it'));
});

test('the newsletter switch on the privacy page persists after a reload', async ({ page }, testInfo) => {
  // Customers subscribed at registration (demo newsletter), one per project.
  const who =
    testInfo.project.name === 'phone'
      ? { email: 'demo.at@example.com', country: 'AT', language: 'de' }
      : { email: 'demo.hu@example.com', country: 'HU', language: 'hu' };
  const t = texts(who.language);
  await openSignedIn(page, who.email);
  await page.goto(routes.account.privacy.build(who.country, who.language));
  await expect(page.getByRole('heading', { level: 1, name: t['privacy-title'] })).toBeVisible();
  const toggle = page.getByRole('switch', { name: t['newsletter-label'] });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByRole('status')).toHaveText(t['newsletter-off']!);
  await page.reload();
  await expect(page.getByRole('switch', { name: t['newsletter-label'] })).not.toBeChecked();
  await expect(page.getByRole('listitem').first()).toContainText(t['newsletter-action-UNSUBSCRIBE']!);
});
