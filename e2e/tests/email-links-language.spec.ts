import { expect, test, type Page } from '@playwright/test';
import { appPaths } from '@roadpass/contracts';
import { routes } from '../../apps/web/src/config/routes.js';
import { newestLinkPath, newestMessage, outboxMessages } from './outbox.js';
import {
  DEMO_PASSWORD,
  exclusively,
  fill,
  loginTexts,
  openSignedIn,
  signInOnLoginPage,
  texts,
} from './support.js';

// Issue 17, items 3 and 6: an e-mail address another account uses is answered exactly like a free
// one, and the pages that e-mails lead to (and the sign-in page after signing out) speak the
// customer's language, not the browser's. The browser here speaks English; the customers do not.
test.use({ locale: 'en-US' });

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const startsWith = (label: string | undefined) => new RegExp(`^${escaped(label!)}`);

/** Asks for a new e-mail address on the profile page; resolves with the confirmation it shows. */
async function askForEmail(page: Page, t: Record<string, string>, email: string) {
  const field = page.getByRole('textbox', { name: startsWith(t['profile-field-email']) });
  await field.fill(email);
  await page.getByRole('button', { name: t['profile-submit'] }).click();
  const status = page.getByRole('status').filter({ hasText: t['profile-saved']! });
  await expect(status).toBeVisible();
  return {
    status: (await status.textContent())!.split(email).join('<asked>'),
    hint: (await page.locator('#profile-email-hint').textContent())?.split(email).join('<asked>'),
  };
}

test('an address another account uses gets the confirmation a free one gets; its owner is told instead', async ({
  page,
  browser,
}, testInfo) => {
  const t = texts('de');
  await exclusively('demo.at@example.com', async () => {
    await openSignedIn(page, 'demo.at@example.com');
    await page.goto(routes.account.profile.build('AT', 'de'));
    await expect(page.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
    const start = new Date().toISOString();

    const free = `lukas.${testInfo.project.name}.${Date.now()}@example.com`;
    const taken = 'demo.hu@example.com';
    try {
      const freeAnswer = await askForEmail(page, t, free);
      expect(freeAnswer.status).toBe(
        `${t['profile-saved']} ${fill(t['profile-email-sent'], { email: '<asked>' })}`,
      );
      const takenAnswer = await askForEmail(page, t, taken);
      // The customer cannot tell the two apart.
      expect(takenAnswer).toEqual(freeAnswer);
    } finally {
      // Back to the account's own address: the pending change is dropped, nothing else changed.
      await askForEmail(page, t, 'demo.at@example.com');
    }

    // The free address got its confirmation link; the taken one a notice in its owner's language.
    const confirmation = await newestMessage(page.request, free, 'email-confirmation', start);
    expect(new URL(confirmation.links[0]!).searchParams.get('locale')).toBe('de-AT');
    const notice = await newestMessage(page.request, taken, 'email-in-use', start);
    expect(notice.subject).toBe('Valaki megpróbálta használni az e-mail-címedet a Roadpassnál');
    expect(notice.links.some((link) => link.includes(appPaths.emailConfirm('')))).toBe(false);
    const toTaken = (await outboxMessages(page.request)).filter(
      (m) => m.to === taken && m.createdAt > start && m.kind === 'email-confirmation',
    );
    expect(toTaken).toEqual([]);

    // The link (dead now: the change was replaced and dropped) opens its page in the e-mail's
    // language, in a browser where nobody is signed in.
    const signedOut = await browser.newContext({ locale: 'en-US' });
    try {
      const visitor = await signedOut.newPage();
      await visitor.goto(await newestLinkPath(page.request, free, 'email-confirmation'));
      await expect(visitor.locator('html')).toHaveAttribute('lang', 'de');
      await expect(visitor.getByRole('heading', { level: 1, name: t['email-confirm-title'] })).toBeVisible();
      await expect(visitor.getByText(t['email-confirm-failed']!)).toBeVisible();
    } finally {
      await signedOut.close();
    }
  });
});

for (const who of [
  { email: 'demo.de@example.com', language: 'de' },
  { email: 'demo.hu@example.com', language: 'hu' },
]) {
  test(`the unsubscribe link opens its page in the customer's language (${who.language})`, async ({
    page,
  }) => {
    const t = texts(who.language);
    // Looked at, not used: the link stays valid for the other specs.
    await page.goto(await newestLinkPath(page.request, who.email, 'newsletter'));
    await expect(page.locator('html')).toHaveAttribute('lang', who.language);
    await expect(page.getByRole('heading', { level: 1, name: t['unsubscribe-title'] })).toBeVisible();
    await expect(page.getByText(fill(t['unsubscribe-question'], { email: who.email }))).toBeVisible();
    await expect(page.getByRole('button', { name: t['unsubscribe-button'] })).toBeVisible();
  });
}

test('the sign-in page after signing out speaks the signed-out customer’s language', async ({
  page,
  browser,
}) => {
  const t = texts('hu');
  const login = loginTexts('hu');
  await openSignedIn(page, 'demo.hu@example.com');
  await expect(page).toHaveURL(/\/HU\/hu\/myaccount$/);
  await page.getByRole('button', { name: t['sign-out'], exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await expect(page.getByRole('heading', { level: 1, name: login.heading })).toBeVisible();

  // Signing in again there leads back to the account.
  await signInOnLoginPage(page, 'demo.hu@example.com', DEMO_PASSWORD, 'hu');
  await expect(page).toHaveURL(/\/HU\/hu\/myaccount$/);

  // Another browser, where nobody signed out, still follows its own language.
  const other = await browser.newContext({ locale: 'en-US' });
  try {
    const visitor = await other.newPage();
    await visitor.goto('/');
    await expect(visitor).toHaveURL(/\/auth\/realms\/customer\//);
    await expect(visitor.locator('html')).toHaveAttribute('lang', 'en');
  } finally {
    await other.close();
  }
});
