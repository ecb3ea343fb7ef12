import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiPaths } from '@roadpass/contracts';
import { newestPin, outboxMessages } from './outbox.js';
import { exclusively, fill, openSignedIn, texts } from './support.js';
import { PIN_MAX_ATTEMPTS } from '../../apps/server/src/modules/mobile/pin-limits.js';

// Issue 17, the mobile number page (/{COUNTRY}/{lang}/myaccount/mobile) against the real server, at
// phone size (the steps do not change with the screen: playwright.config.ts). The tests change the
// numbers of customers of their own (account-area.spec.ts uses demo.de and demo.fr); demo.it is also
// the account home's language test customer: one test at a time. The numbers' formats in every country
// are the server's tests' (apps/server/src/modules/mobile).
const customers = {
  changes: { email: 'demo.it@example.com', typed: '+39 312 345 6789', e164: '+393123456789' },
  voids: { email: 'demo.nl@example.com', typed: '+31 6 1234 5678', e164: '+31612345678' },
} as const;
/** How the page shows each number: in its country's grouping. */
const grouped: Record<string, string> = {
  '+393123456789': '+39 312 345 6789',
  '+31612345678': '+31 6 12345678',
};

const wcag = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsWith = (label: string | undefined) => new RegExp(`^${escaped(label!)}`);

/** Signs in and opens the mobile page from the account menu, in the customer's saved language. */
async function openMobilePage(page: Page, email: string): Promise<Record<string, string>> {
  await openSignedIn(page, email);
  const language = /\/[A-Z]{2}\/([a-z]{2})\/myaccount$/.exec(new URL(page.url()).pathname)![1]!;
  const t = texts(language);
  await page.getByRole('link', { name: new RegExp(t['account-menu-mobile-title']!) }).click();
  await expect(page.getByRole('heading', { level: 1, name: t['mobile-title'] })).toBeVisible();
  return t;
}

/** What a customer sees of a control: filled (a button) or text only (a link). */
const looks = (control: Locator) =>
  control.evaluate((element) => {
    const style = getComputedStyle(element);
    return style.backgroundColor === 'rgba(0, 0, 0, 0)' ? 'text' : 'filled';
  });

const smsCount = async (page: Page, to: string) =>
  (await outboxMessages(page.request)).filter((m) => m.to === to && m.kind === 'mobile-pin').length;

test('a number written with spaces is taken, kept in E.164, shown grouped, and asking for it again sends nothing', async ({
  page,
}) => {
  const who = customers.changes;
  await exclusively(who.email, async () => {
    const t = await openMobilePage(page, who.email);
    const sentAfter = new Date().toISOString();
    await page.getByLabel(startsWith(t['mobile-new'])).fill(who.typed);
    await page.getByRole('button', { name: t['mobile-send-pin'] }).click();

    // The PIN goes to the number in E.164; the page names it as people read it.
    const pinField = page.getByLabel(startsWith(t['mobile-pin']));
    await expect(pinField).toBeFocused();
    await expect(
      page.getByText(t['mobile-pin-sent']!.split('{{number}}')[0]! + grouped[who.e164]!),
    ).toBeVisible();
    const pin = await newestPin(page.request, who.e164, sentAfter);

    // One primary action; sending another PIN and using another number read as links.
    const confirm = page.getByRole('button', { name: t['mobile-confirm'] });
    expect(await looks(confirm)).toBe('filled');
    expect(await looks(page.getByRole('button', { name: t['mobile-resend'] }))).toBe('text');
    expect(await looks(page.getByRole('button', { name: t['mobile-other-number'] }))).toBe('text');

    await pinField.fill(pin);
    await confirm.click();
    await expect(page.getByRole('status')).toHaveText(
      fill(t['mobile-saved'], { number: grouped[who.e164]! }),
    );
    await page.reload();
    const current = fill(t['mobile-current'], { number: grouped[who.e164]! });
    await expect(page.getByText(current)).toBeVisible();

    // The same number again, written another way: said to be the customer's own, nothing sent.
    const sent = await smsCount(page, who.e164);
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === apiPaths.mobile)
        puts.push(request.url());
    });
    const numberField = page.getByLabel(startsWith(t['mobile-new']));
    await numberField.fill(grouped[who.e164]!);
    await page.getByRole('button', { name: t['mobile-send-pin'] }).click();
    await expect(numberField).toHaveAttribute('aria-invalid', 'true');
    await expect(numberField).toHaveAccessibleDescription(new RegExp(escaped(t['mobile-rule-same']!)));
    await expect(numberField).toBeFocused();
    expect(puts).toEqual([]);
    expect(await smsCount(page, who.e164)).toBe(sent);

    // The profile shows the number the same way.
    await page.getByRole('link', { name: t['account-back'] }).click();
    await page.getByRole('link', { name: new RegExp(t['account-menu-profile-title']!) }).click();
    await expect(page.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
    await expect(page.getByText(grouped[who.e164]!, { exact: true })).toBeVisible();
  });
});

test('a PIN voided by wrong tries cannot be typed any more, and the page says what to do', async ({
  page,
}) => {
  const who = customers.voids;
  const t = await openMobilePage(page, who.email);
  const sentAfter = new Date().toISOString();
  await page.getByLabel(startsWith(t['mobile-new'])).fill(who.typed);
  await page.getByRole('button', { name: t['mobile-send-pin'] }).click();
  const pinField = page.getByLabel(startsWith(t['mobile-pin']));
  await expect(pinField).toBeVisible();
  const pin = await newestPin(page.request, who.e164, sentAfter);
  const wrong = pin === '000000' ? '111111' : '000000';

  for (let left = PIN_MAX_ATTEMPTS - 1; left >= 1; left--) {
    await pinField.fill(wrong);
    await page.getByRole('button', { name: t['mobile-confirm'] }).click();
    await expect(page.getByText(fill(t['mobile-attempts-left'], { attempts: left })).first()).toBeVisible();
  }
  await pinField.fill(wrong);
  await page.getByRole('button', { name: t['mobile-confirm'] }).click();

  const whatToDo = page.getByText(fill(t['mobile-pin-void'], { number: grouped[who.e164]! }));
  await expect(whatToDo).toBeVisible();
  await expect(whatToDo).toBeFocused();
  await expect(pinField).toBeDisabled();
  await expect(pinField).toHaveValue('');
  await expect(page.getByText(fill(t['mobile-attempts-left'], { attempts: 0 }))).toHaveCount(0);
  await expect(page.getByRole('button', { name: t['mobile-confirm'] })).toHaveCount(0);
  // Sending a new PIN is now the one primary action (after the minute between two PINs).
  const resend = page.getByRole('button', { name: t['mobile-resend'] });
  expect(await looks(resend)).toBe('filled');
  await expect(resend).toBeDisabled();
  await expect(resend).toHaveAccessibleDescription(/\d/);
  expect(await looks(page.getByRole('button', { name: t['mobile-other-number'] }))).toBe('text');

  const axe = await new AxeBuilder({ page }).withTags(wcag).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  const noSideways = await page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
  expect(noSideways, 'the page does not scroll sideways').toBe(true);

  // The server keeps it so: after a reload the same.
  await page.reload();
  await expect(whatToDo).toBeVisible();
  await expect(pinField).toBeDisabled();
});
