import { iconSizes, tierIconNames, tierSlugs } from '@roadpass/contracts';
import { expect, test } from '@playwright/test';
import { fill, loyaltyAddress, loyaltyTexts, loyaltyUrl, recordAddresses, texts } from './support.js';

/** Translation keys of the tier icon names on the demo page. */
const iconNameKeys: Record<(typeof tierIconNames)[number], string> = {
  generic: 'loyalty-demo-tier-generic',
  'sky blue': 'loyalty-demo-tier-sky-blue',
  'ocean silver': 'loyalty-demo-tier-ocean-silver',
  'royal gold': 'loyalty-demo-tier-royal-gold',
  'sapphire diamond': 'loyalty-demo-tier-sapphire-diamond',
};

test.describe('the loyalty demo', () => {
  for (const language of ['en', 'de'] as const) {
    test(`works signed out: tiers in the carousel and every icon in every size (${language})`, async ({
      page,
    }) => {
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

      // Every tier icon in the four sizes of spec §9, named and drawn at its size.
      const icons = page.getByRole('region', { name: t['loyalty-demo-icons-title'] });
      for (const name of tierIconNames) {
        const tier = icons.getByRole('listitem').filter({
          has: page.getByRole('heading', { level: 3, name: t[iconNameKeys[name]], exact: true }),
        });
        await expect(tier).toBeVisible();
        for (const [size, pixels] of Object.entries(iconSizes)) {
          const entry = tier.getByRole('listitem').filter({
            hasText: fill(t['loyalty-demo-icon-size'], { size, pixels }),
          });
          await expect(entry).toBeVisible();
          const icon = entry.locator('svg');
          await expect(icon).toBeVisible();
          const box = (await icon.boundingBox())!;
          expect(box.width).toBeCloseTo(pixels, 0);
          expect(box.height).toBeCloseTo(pixels, 0);
        }
      }
    });
  }
});
