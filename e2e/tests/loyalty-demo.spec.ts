import { tierSlugs } from '@roadpass/contracts';
import { expect, test } from '@playwright/test';
import { fill, loyaltyAddress, loyaltyTexts, loyaltyUrl, recordAddresses, texts } from './support.js';

test.describe('the loyalty demo', () => {
  for (const language of ['en', 'de'] as const) {
    test(`works signed out: the tiers in the carousel and the way in (${language})`, async ({ page }) => {
      // A fresh context: nobody is signed in.
      const t = texts(language);
      const tierNames = tierSlugs.map((slug) => loyaltyTexts(language).tiers[slug]!.title);
      const addresses = recordAddresses(page);
      await page.goto(loyaltyUrl('/demo', language));

      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-demo-title'] })).toBeVisible();
      await expect(page).toHaveURL(loyaltyAddress('/demo'));
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // No detour through the login page.
      expect(addresses.filter((address) => !address.startsWith('/customer/loyalty-ui/demo'))).toEqual([]);

      // The tiers, lowest first, as cards of the carousel; the first one is shown, the pager brings
      // each of the others.
      const carousel = page.getByRole('region', { name: t['loyalty-demo-tiers-label'] });
      await expect(carousel).toBeVisible();
      const tierCard = (index: number) =>
        carousel.getByRole('group', {
          name: fill(t['loyalty-demo-tier-card-label'], {
            tier: tierNames[index]!,
            index: index + 1,
            count: 4,
          }),
        });
      await expect(tierCard(0)).toBeVisible();
      await expect(tierCard(0)).toContainText(fill(t['loyalty-demo-tier-threshold'], { points: 0 }));
      for (const index of [1, 2, 3]) {
        await carousel
          .getByRole('button', { name: fill(t['carousel-go-to'], { index: index + 1, count: 4 }) })
          .click();
        await expect(tierCard(index)).toBeVisible();
        await expect(tierCard(index).getByRole('heading', { name: tierNames[index] })).toBeVisible();
      }

      // For prospective members: no developer labels, and the way in.
      await expect(page.getByText(/\d+ px/)).toHaveCount(0);
      await expect(page.getByRole('link', { name: t['loyalty-demo-cta-button'] })).toHaveAttribute(
        'href',
        '/customer/loyalty-ui/',
      );
    });
  }

  // Issue 7: /demo?locale=hu-HU, da_DK or nl-nl showed English, and the tier content stayed English.
  for (const [requested, language] of [
    ['hu-HU', 'hu'],
    ['da_DK', 'da'],
    ['nl-nl', 'nl'],
  ] as const) {
    test(`speaks the language of ?locale=${requested}, tier content included`, async ({ page }) => {
      const t = texts(language);
      await page.goto(`${loyaltyUrl('/demo')}?locale=${requested}`);
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-demo-title'] })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const firstTier = loyaltyTexts(language).tiers[tierSlugs[0]]!;
      const carousel = page.getByRole('region', { name: t['loyalty-demo-tiers-label'] });
      await expect(carousel.getByRole('heading', { name: firstTier.title })).toBeVisible();
      await expect(carousel).toContainText(firstTier.text);
    });
  }

  test('reads built-in English, never raw keys, when the texts cannot be loaded', async ({ page }) => {
    const en = texts('en');
    await page.route(/\/api\/core-web\/content\/contentCollection\//, (route) => route.abort());
    await page.goto(`${loyaltyUrl('/demo')}?locale=de-DE`);
    await expect(page.getByRole('heading', { level: 1, name: en['loyalty-demo-title'] })).toBeVisible();
    await expect(page.getByRole('link', { name: en['loyalty-demo-cta-button'] })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(/loyalty-[a-z]+-[a-z-]+/);
  });
});
