import { apiPaths, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { expect, test, type Page } from '@playwright/test';
import {
  allowClipboard,
  customerApi,
  exclusively,
  fill,
  loyaltyAddress,
  loyaltyProgramme,
  loyaltyTexts,
  loyaltyUrl,
  openLoyalty,
  texts,
} from './support.js';

// demo.de@example.com: royal gold. The demo data gave her codes for the first two partner rewards
// she has unlocked; the first test asks for a code of another one. At phone size only: the steps do not
// change with the screen (playwright.config.ts).
const email = 'demo.de@example.com';

async function partnerCodeOnServer(page: Page, slug: string): Promise<string | null> {
  const api = await customerApi(page);
  const found = await api.get<LoyaltyPartnerCode>(apiPaths.loyaltyPartnerCode(api.uuid, slug));
  expect([200, 404]).toContain(found.status);
  return found.status === 200 ? found.body.code : null;
}

test.describe('a partner reward', () => {
  test('a royal gold member gets a partner code that stays the same after a reload, and copies it', async ({
    page,
    context,
  }) => {
    const [slug, language] = ['cinenova-cinema', 'de'] as const;
    const reward = loyaltyProgramme().rewards.find((candidate) => candidate.slug === slug)!;
    expect(reward).toMatchObject({ unlockedIn: 'royal-gold', partnerCode: true });
    expect(reward.legalEntities).toContain('DE');
    const t = texts(language);
    const content = loyaltyTexts(language);
    const title = content.rewards[slug]!.title;
    await allowClipboard(context);
    // Copies of this test (--repeat-each) take turns, so that "no code yet" stays true until clicked.
    test.setTimeout(120_000);
    await exclusively(`${email}-${slug}`, async () => {
      // German, the customer's own language: no locale query.
      await openLoyalty(page, email, '/tier-overview');
      // The demo data holds no code for this reward (the first run gets one); a repeated run finds it.
      const before = await partnerCodeOnServer(page, slug);

      // The overview moves to the customer's own tier; its rewards can be opened from there.
      const royalGold = page.getByRole('group', {
        name: fill(t['loyalty-tiers-card-label'], {
          tier: content.tiers['royal-gold']!.title,
          index: 3,
          count: 4,
        }),
      });
      await royalGold.getByRole('link', { name: new RegExp(`^${title}`) }).click();
      await expect(page).toHaveURL(loyaltyAddress(`/reward/${slug}`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText(t['loyalty-reward-unlocked']!, { exact: true })).toBeVisible();

      const codeSection = page.getByRole('region', { name: t['loyalty-partner-code-title'] });
      const getCode = codeSection.getByRole('button', { name: t['loyalty-partner-code-get'] });
      const copy = codeSection.getByRole('button', { name: t['loyalty-partner-code-copy'] });
      if (before === null) {
        // No code yet: the customer asks for one.
        await expect(codeSection.getByText(t['loyalty-partner-code-none']!)).toBeVisible();
        await getCode.click();
      }
      await expect(copy).toBeVisible();
      await expect(getCode).toHaveCount(0);
      const code = await partnerCodeOnServer(page, slug);
      expect(code).not.toBeNull();
      if (before !== null) expect(code).toBe(before);
      await expect(codeSection.getByText(code!, { exact: true })).toBeVisible();
      await expect(
        codeSection.getByText(fill(t['loyalty-partner-code-intro'], { partner: reward.partnerName })),
      ).toBeVisible();

      // The code is the customer's: the same after a reload (a page load of the same address).
      await page.goto(loyaltyUrl(`/reward/${slug}`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(codeSection.getByText(code!, { exact: true })).toBeVisible();
      await expect(getCode).toHaveCount(0);

      // Copy puts it on the clipboard and says so.
      await copy.click();
      await expect(
        page.getByRole('status').filter({ hasText: t['loyalty-partner-code-copied'] }),
      ).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    });
  });

  test('a code the customer already has shows at once', async ({ page }) => {
    // In English, from the locale query parameter (the customer's own language is German).
    const language = 'en';
    const t = texts(language);
    const slug = 'velovia-bike-rides';
    await openLoyalty(page, email, `/reward/${slug}`, language);
    const code = await partnerCodeOnServer(page, slug);
    expect(code, 'the demo data gave demo.de a code for this reward').not.toBeNull();

    await expect(
      page.getByRole('heading', { level: 1, name: loyaltyTexts(language).rewards[slug]!.title }),
    ).toBeVisible();
    const codeSection = page.getByRole('region', { name: t['loyalty-partner-code-title'] });
    await expect(codeSection.getByText(code!, { exact: true })).toBeVisible();
    await expect(codeSection.getByRole('button', { name: t['loyalty-partner-code-get'] })).toHaveCount(0);

    await page.reload();
    await expect(codeSection.getByText(code!, { exact: true })).toBeVisible();
  });
});
