import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiPaths, appPaths, type PaymentProfilesResponse } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath, newestPin } from './outbox.js';
import { customerApi, fill, openSignedIn, signInOnLoginPage, texts } from './support.js';
import { PIN_MAX_ATTEMPTS } from '../../apps/server/src/modules/mobile/pin-limits.js';

// Issue 8, the account area in the browser, against the real server. Each project (phone, desktop)
// uses customers of its own, so the two never share a PIN or an unsubscribe link.
const customers = {
  phone: {
    mobile: {
      email: 'demo.de@example.com',
      country: 'DE',
      language: 'de',
      number: '+4915123456789',
      shown: '+49 1512 3456789',
    },
    unsubscribe: { email: 'demo.fr@example.com', language: 'fr' },
  },
  desktop: {
    mobile: {
      email: 'demo.fr@example.com',
      country: 'FR',
      language: 'fr',
      number: '+33612345678',
      shown: '+33 6 12 34 56 78',
    },
    unsubscribe: { email: 'demo.es@example.com', language: 'es' },
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
  // Kept in E.164, shown in the country's grouping.
  await expect(page.getByRole('status')).toHaveText(fill(t['mobile-saved'], { number: who.shown }));
  await page.reload();
  await expect(page.getByText(fill(t['mobile-current'], { number: who.shown }))).toBeVisible();

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
  const submit = page.getByRole('button', { name: t['password-submit'], exact: true });
  // As the profile's: the whole width of the form on a phone, its own width on a wide screen (28 Nov:
  // 600 px wide at 1280).
  const formWidth = (await page.locator('form.password-form').boundingBox())!.width;
  const submitWidth = (await submit.boundingBox())!.width;
  if (page.viewportSize()!.width >= 640) expect(submitWidth).toBeLessThan(formWidth / 2);
  else expect(submitWidth).toBeGreaterThan(formWidth - 48);
  await submit.click();
  await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(t['password-rule-notCommon']!)).toBeVisible();
  expect(passwordChanges).toEqual([]);

  await page.getByRole('link', { name: t['account-back'] }).click();
  await menu.getByRole('link', { name: startsWith(t['account-menu-payment-title']) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['payment-list-title'] })).toBeVisible();
  await expect(page.getByText(t['payment-default']!, { exact: true })).toBeVisible();
  // In a browser the page says where payment methods change (the handover link is the webview's).
  await expect(page.getByText(t['payment-profiles-text']!)).toBeVisible();
});

test('the newsletter unsubscribe link works signed out, once, in the language of its e-mail', async ({
  page,
}, testInfo) => {
  const { email, language } = customers[testInfo.project.name as keyof typeof customers].unsubscribe;
  const path = await newestLinkPath(page.request, email, 'newsletter');
  expect(path.startsWith(appPaths.newsletterUnsubscribe(''))).toBe(true);
  const t = texts(language);
  await page.goto(path);
  await expect(page).toHaveURL(path);
  await page.getByRole('button', { name: t['unsubscribe-button'] }).press('Enter');
  // The button is gone: its answer takes the focus, not the page.
  await expect(page.getByText(fill(t['unsubscribe-done'], { email }))).toBeFocused();

  await page.goto(path);
  await expect(page.getByText(t['unsubscribe-unknown']!)).toBeVisible();
  // A used link offers nothing to press on the page (the footer's privacy settings stay).
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
});

test('the payment methods show as cards and say where to change them, in the frame', async ({ page }) => {
  const t = texts('it');
  await openSignedIn(page, 'demo.it@example.com');
  await page.getByRole('link', { name: new RegExp(t['account-menu-payment-title']!) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['payment-list-title'] })).toBeVisible();
  await expect(page.getByText(fill(t['payment-card-ending'], { last4: '1881' }))).toBeVisible();
  await expect(page.getByText(t['payment-default']!, { exact: true })).toBeVisible();
  // Issue 17: the link led out of the frame to an English page with no way back; now the page says
  // where payment methods are changed, in the customer's language, under the same name.
  await expect(page.getByText(t['payment-profiles-text']!)).toBeVisible();
  expect(t['payment-profiles-title']).toBe(t['payment-list-title']);
  await expect(page.locator(`a[href^="${appPaths.paymentProfilesRedirect}"]`)).toHaveCount(0);
  // The way back looks as on the loyalty pages (28 Nov: an underlined "←" glued to its words here, a
  // chevron there): a chevron, the words, no underline until pointed at.
  const back = page.getByRole('link', { name: t['account-back'], exact: true });
  await expect(back.locator('svg')).toHaveCount(1);
  await expect(back).not.toContainText('←');
  await expect(back).toHaveCSS('text-decoration-line', 'none');
  await back.click();
  await expect(page).toHaveURL(appPaths.accountHome('IT', 'it'));
});

// Issue 17, finding 17: an IBAN wrapped as "**30 / 00", its last four split. In groups of four that end
// with the last four, and a line breaks between groups only.
test('an IBAN shows in groups of four ending with its last four, never broken inside a group', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 700 });
  // A German IBAN has 22 characters: counted from its start, the last group holds two.
  await openSignedIn(page, 'demo.de@example.com');
  const api = await customerApi(page);
  const profiles = await api.get<PaymentProfilesResponse>(apiPaths.paymentProfiles);
  const sepa = profiles.body.body.paymentProfiles.find((profile) => profile.type === 'SEPA');
  const iban = sepa!.type === 'SEPA' ? sepa!.maskedIban.replace(/\s/g, '') : '';
  await page.goto(routes.account.payment.build('DE', 'de'));
  const shown = page.locator('p', { hasText: /\*{4}/ });
  await expect(shown).toBeVisible();
  // Each visible group of characters, with the lines its characters sit on.
  const groups = await shown.evaluate((element) => {
    const found: { text: string; lines: Set<number> }[] = [];
    let current: { text: string; lines: Set<number> } | null = null;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement!.getBoundingClientRect().width <= 1) continue; // the visually hidden label
      for (let index = 0; index < node.textContent!.length; index++) {
        const character = node.textContent![index]!;
        if (/\s/.test(character)) {
          current = null;
          continue;
        }
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        if (!current) found.push((current = { text: '', lines: new Set() }));
        current.text += character;
        current.lines.add(Math.round(range.getBoundingClientRect().top));
      }
    }
    return found.map((group) => ({ text: group.text, lines: group.lines.size }));
  });
  expect(groups.map((group) => group.text).join('')).toBe(iban);
  expect(groups.at(-1)!.text).toBe(iban.slice(-4));
  for (const group of groups) {
    expect(group.text.length).toBeLessThanOrEqual(4);
    expect(group.lines, `"${group.text}" on one line`).toBe(1);
  }
});

test('the payment redirect’s page in a browser says where to go, with the way to the account', async ({
  page,
}) => {
  const t = texts('fr');
  await page.goto(`${appPaths.paymentProfilesRedirect}?locale=fr_FR`);
  await expect(page.getByRole('heading', { level: 1, name: t['payment-profiles-title'] })).toBeVisible();
  await expect(page.getByText(t['payment-profiles-text']!)).toBeVisible();
  await page.getByRole('link', { name: t['account-back'] }).click();
  // The page needs no sign-in, so it does not know the customer: the sign-in page follows the browser.
  await signInOnLoginPage(page, 'demo.fr@example.com');
  await expect(page).toHaveURL(appPaths.accountHome('FR', 'fr'));
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
  // With the keyboard: the switch keeps the focus while its change is saved and after.
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status')).toHaveText(t['newsletter-off']!);
  await expect(toggle).toBeFocused();
  await page.reload();
  await expect(page.getByRole('switch', { name: t['newsletter-label'] })).not.toBeChecked();
  await expect(page.getByRole('listitem').first()).toContainText(t['newsletter-action-UNSUBSCRIBE']!);
});
