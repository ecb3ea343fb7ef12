import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { expectSettledOn, fill, loyaltyAddress, loyaltyTexts, openLoyalty, texts } from './support.js';

// demo.de@example.com is read here only.
const email = 'demo.de@example.com';

test.describe('the loyalty screens', () => {
  test('status, tier overview and history pass an accessibility check (WCAG 2.1 AA)', async ({
    page,
  }, testInfo) => {
    const language = testInfo.project.name === 'phone' ? 'de' : 'en';
    const locale = language === 'de' ? undefined : language;
    const t = texts(language);
    const check = async () => {
      const result = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      return result.violations.map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
      );
    };

    await openLoyalty(page, email, '/status', locale);
    await expect(page).toHaveURL(loyaltyAddress('/status'));
    await expect(page.getByRole('progressbar')).toBeVisible();
    expect(await check()).toEqual([]);

    // On through the app's own links (a page load would start the app, and sign-in, again).
    await page.getByRole('link', { name: t['loyalty-link-tier-overview'] }).click();
    await expect(page).toHaveURL(loyaltyAddress('/tier-overview'));
    const carousel = page.getByRole('region', { name: t['loyalty-tiers-carousel-label'] });
    // Checked once the carousel has settled on the customer's tier (royal gold, the 3rd card).
    await expect(
      carousel.getByRole('button', { name: fill(t['carousel-go-to'], { index: 3, count: 4 }) }),
    ).toHaveAttribute('aria-current', 'true');
    const royalGold = fill(t['loyalty-tiers-card-label'], {
      tier: loyaltyTexts(language).tiers['royal-gold']!.title,
      index: 3,
      count: 4,
    });
    await expectSettledOn(carousel, carousel.getByRole('group', { name: royalGold }));
    expect(await check()).toEqual([]);

    await page.getByRole('link', { name: t['loyalty-back-to-status'] }).click();
    await page.getByRole('link', { name: t['loyalty-link-history'] }).click();
    await expect(page).toHaveURL(loyaltyAddress('/history'));
    await expect(page.getByRole('list', { name: t['loyalty-history-list-label'] })).toBeVisible();
    expect(await check()).toEqual([]);
  });
});
