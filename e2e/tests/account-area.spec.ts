import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { appPaths } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath, newestPin } from './outbox.js';
import { PIN_MAX_ATTEMPTS } from '../../apps/server/src/modules/mobile/mobile-service.js';
import { fill, openSignedIn, texts } from './support.js';

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
  const toggle = page.getByRole('switch', { name: t['newsletter-label'] });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByRole('status')).toHaveText(t['newsletter-off']!);
  await page.reload();
  await expect(page.getByRole('switch', { name: t['newsletter-label'] })).not.toBeChecked();
  await expect(page.getByRole('listitem').first()).toContainText(t['newsletter-action-UNSUBSCRIBE']!);
});
