import { expect, test, type Page } from '@playwright/test';
import { exclusively, openSignedIn, texts } from './support.js';

// Issue 8: every account page as the three customers whose rules differ most (demo.it: fiscal code,
// demo.hu: read-only address, demo.es: province rule), in their own language and in English. The
// saved language is the customer's (shared state): it is switched on the account home and put back,
// holding the customer's lock.

const accountPages = [
  ['profile', 'profile-title'],
  ['password', 'password-title'],
  ['mobile', 'mobile-title'],
  ['privacy', 'privacy-title'],
  ['payment', 'payment-list-title'],
] as const;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** From the account home, each page through the account menu and back, read in `language`. */
async function visitEveryPage(page: Page, country: string, language: string): Promise<void> {
  const t = texts(language);
  const home = new RegExp(`/${country}/${language}/myaccount$`);
  for (const [name, titleKey] of accountPages) {
    await page
      .getByRole('link', { name: new RegExp(`^${escaped(t[`account-menu-${name}-title`]!)}`) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/${country}/${language}/myaccount/${name}$`));
    await expect(page.getByRole('heading', { level: 1, name: t[titleKey] })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page).toHaveTitle(new RegExp(escaped(t[titleKey]!)));
    await page.goBack();
    await expect(page).toHaveURL(home);
  }
}

for (const [email, country, own] of [
  ['demo.it@example.com', 'IT', 'it'],
  ['demo.hu@example.com', 'HU', 'hu'],
  ['demo.es@example.com', 'ES', 'es'],
] as const) {
  test(`every account page of ${email} reads in ${own} and, switched, in English`, async ({ page }) => {
    await exclusively(email, async () => {
      await openSignedIn(page, email);
      await expect(page).toHaveURL(new RegExp(`/${country}/${own}/myaccount$`));
      await visitEveryPage(page, country, own);

      await page.getByRole('combobox', { name: texts(own)['language-label'] }).selectOption('en');
      await expect(page).toHaveURL(new RegExp(`/${country}/en/myaccount$`));
      try {
        await visitEveryPage(page, country, 'en');
      } finally {
        await page.getByRole('combobox', { name: texts('en')['language-label'] }).selectOption(own);
        await expect(page).toHaveURL(new RegExp(`/${country}/${own}/myaccount$`));
        await expect(
          page.getByRole('status').filter({ hasText: texts(own)['language-saved']! }),
        ).toBeVisible();
      }
    });
  });
}
