import { expect, test } from '@playwright/test';
import {
  fill,
  formatPoints,
  loyaltyAddress,
  loyaltyProgramme,
  loyaltyTexts,
  openLoyalty,
  texts,
  tierDetailsOf,
} from './support.js';

// demo.de@example.com is read here only: royal gold, 250 history entries (docs/product/demo-data.md#demo-customers).
const email = 'demo.de@example.com';

test.describe('the loyalty status page', () => {
  for (const language of ['de', 'en'] as const) {
    test(`shows the member's tier and points (${language})`, async ({ page }) => {
      // German is the customer's own language; English comes from the locale query parameter.
      await openLoyalty(page, email, '/status', language === 'de' ? undefined : language);
      const t = texts(language);
      const details = await tierDetailsOf(page);
      expect(details.tier).toBe('royal-gold');

      await expect(page).toHaveURL(loyaltyAddress('/status'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-status-title'] })).toBeVisible();
      const tierName = loyaltyTexts(language).tiers['royal-gold']!.title;
      await expect(page.getByText(t['loyalty-status-tier-label']!, { exact: true })).toBeVisible();
      await expect(page.getByText(tierName, { exact: true })).toBeVisible();

      // The points exactly as the API reports them, written the way the language writes numbers.
      // The demo customer has thousands of points, so the separator shows: 4.500 in German, 4,500 in
      // English (issue 10: English readers in Germany saw the German 4.500).
      const points = formatPoints(details.points, language, 'DE');
      expect(points).toMatch(language === 'de' ? /^\d{1,3}(\.\d{3})+$/ : /^\d{1,3}(,\d{3})+$/);
      await expect(page.getByText(t['loyalty-status-points-label']!, { exact: true })).toBeVisible();
      await expect(page.getByText(points, { exact: true })).toBeVisible();

      // How far to the next tier (its threshold is content), with a progress bar named after it.
      const nextTier = loyaltyTexts(language).tiers['sapphire-diamond']!.title;
      const threshold = loyaltyProgramme().tiers.find((tier) => tier.slug === 'sapphire-diamond')!.threshold;
      const toNext = fill(t['loyalty-status-to-next-tier'], {
        points: formatPoints(threshold - details.points, language, 'DE'),
        tier: nextTier,
      });
      await expect(page.getByText(toNext, { exact: true })).toBeVisible();
      await expect(page.getByRole('progressbar', { name: new RegExp(nextTier) })).toBeVisible();

      // The way on to the other loyalty screens.
      await expect(page.getByRole('link', { name: t['loyalty-link-tier-overview'] })).toBeVisible();
      await expect(page.getByRole('link', { name: t['loyalty-link-history'] })).toBeVisible();
    });
  }
});
