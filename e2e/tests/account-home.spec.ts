import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { newCustomer, openSignedIn, texts } from './support.js';

test.describe('the account home', () => {
  test('the language switcher changes the texts, the address, and the saved language', async ({
    page,
  }, testInfo) => {
    // A customer of its own: the saved language is shared state, and every other test that opens a
    // demo customer's pages expects their own language (1 Dec: the payment test of demo.it once met
    // the account home in English while this test had switched it).
    const [country, own] = testInfo.project.name === 'phone' ? ['AT', 'de'] : ['IT', 'it'];
    const email = await newCustomer(page.request, country);
    const ownTexts = texts(own);
    const en = texts('en');
    await openSignedIn(page, email);
    await expect(page).toHaveURL(new RegExp(`/${country}/${own}/myaccount$`));
    await expect(page.getByRole('button', { name: ownTexts['sign-out'] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: ownTexts['account-settings'] })).toBeVisible();

    await page.getByRole('combobox', { name: ownTexts['language-label'] }).selectOption('en');
    await expect(page).toHaveURL(new RegExp(`/${country}/en/myaccount$`));
    await expect(page.getByRole('button', { name: en['sign-out'] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: en['account-settings'] })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('status').filter({ hasText: en['language-saved']! })).toBeVisible();

    // The language was saved on the server: without the local preference, the app opens in English.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/');
    await expect(page).toHaveURL(new RegExp(`/${country}/en/myaccount$`));

    // And back, by keyboard: the customer's own language is listed first.
    const switcher = page.getByRole('combobox', { name: en['language-label'] });
    await switcher.focus();
    await page.keyboard.press('ArrowUp');
    await expect(page).toHaveURL(new RegExp(`/${country}/${own}/myaccount$`));
    await expect(page.getByRole('button', { name: ownTexts['sign-out'] })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: ownTexts['language-saved']! })).toBeVisible();
  });

  test('the account home and the login page pass an accessibility check', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByLabel('E-mail')).toBeVisible();
    const login = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
    expect(login.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await page.getByLabel('E-mail').fill('demo.es@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Demo-2026!');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Javier García');
    const home = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
    expect(home.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  test('works by keyboard: skip link, the frame, the loyalty programme and the language switcher in order', async ({
    page,
  }) => {
    await openSignedIn(page, 'demo.nl@example.com');
    const nl = texts('nl');
    const order = [
      page.getByRole('link', { name: nl['skip-to-content'] }),
      page.getByRole('link', { name: nl['nav-home'], exact: true }),
      page.getByRole('link', { name: nl['nav-account'], exact: true }),
      page.getByRole('link', { name: nl['nav-loyalty'], exact: true }),
      page.getByRole('button', { name: nl['sign-out'], exact: true }),
      // The account menu: every sub-page, in the order it shows them.
      ...(['profile', 'password', 'mobile', 'privacy', 'payment', 'security', 'passkeys'] as const).map(
        (sub) => page.getByRole('link', { name: new RegExp(nl[`account-menu-${sub}-title`]!) }),
      ),
      page.getByRole('link', { name: new RegExp(nl['account-loyalty-title']!) }),
      page.getByRole('combobox', { name: nl['language-label'] }),
      page.getByRole('link', { name: nl['account-close-link'], exact: true }),
    ];
    for (const element of order) {
      await page.keyboard.press('Tab');
      await expect(element).toBeFocused();
    }
  });
});
