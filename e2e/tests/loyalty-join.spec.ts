import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import { expect, test } from '@playwright/test';
import {
  consentTitle,
  exclusively,
  fill,
  formatPoints,
  leaveLoyaltyProgramme,
  loyaltyAddress,
  loyaltyTexts,
  loyaltyUrl,
  openSignedIn,
  texts,
  tierDetailsOf,
} from './support.js';

/**
 * Joining is a one-way change: the joiner is the demo's non-member (demo.nl, in Dutch). The test first
 * leaves the programme through the API, so that the flow also runs again on a used database. At phone
 * size only: the steps do not change with the screen (playwright.config.ts).
 */
const joiner = { email: 'demo.nl@example.com', country: 'NL', language: 'nl' };

test.describe('joining the loyalty programme', () => {
  test('onboarding → signup → celebration → status, and a member from then on', async ({ page }) => {
    const { email, country, language } = joiner;
    // Copies of this test (--repeat-each) take turns with the customer; waiting counts against the timeout.
    test.setTimeout(120_000);
    await exclusively(email, async () => {
      const t = texts(language);
      const content = loyaltyTexts(language);
      await openSignedIn(page, email);
      await leaveLoyaltyProgramme(page);

      // A non-member is sent to the onboarding.
      await page.goto(loyaltyUrl('/'));
      await expect(page).toHaveURL(loyaltyAddress('/onboarding'));
      await expect(
        page.getByRole('heading', { level: 1, name: t['loyalty-onboarding-title'] }),
      ).toBeVisible();
      await expect(page.getByText(t['loyalty-onboarding-intro']!)).toBeVisible();
      await page.getByRole('link', { name: t['loyalty-onboarding-join'] }).click();

      // The signup: the programme terms must be accepted.
      await expect(page).toHaveURL(loyaltyAddress('/signup'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-signup-title'] })).toBeVisible();
      const terms = page.getByRole('checkbox', {
        name: `${consentTitle(language, LOYALTY_CORE_CONSENT)} (${t['loyalty-signup-required']})`,
      });
      await expect(terms).not.toBeChecked();
      const join = page.getByRole('button', { name: t['loyalty-signup-join'], exact: true });
      await join.click();
      const missing = page.getByText(t['loyalty-signup-consent-missing']!, { exact: true });
      await expect(missing).toBeVisible();
      await expect(terms).toHaveAttribute('aria-invalid', 'true');
      await expect(terms).toHaveAccessibleDescription(new RegExp(t['loyalty-signup-consent-missing']!));
      await expect(terms).toBeFocused();
      await expect(page).toHaveURL(loyaltyAddress('/signup'));

      await terms.check();
      await expect(missing).toHaveCount(0);
      await join.click();

      // The celebration: a member now, in the entry tier.
      await expect(page).toHaveURL(loyaltyAddress('/celebration'));
      await expect(
        page.getByRole('heading', { level: 1, name: t['loyalty-celebration-title'] }),
      ).toBeVisible();
      await expect(
        page.getByText(fill(t['loyalty-celebration-tier'], { tier: content.tiers['sky-blue']!.title }), {
          exact: true,
        }),
      ).toBeVisible();
      await page.getByRole('link', { name: t['loyalty-celebration-next'] }).click();

      // The status: the customer's tier and points as the API now reports them.
      await expect(page).toHaveURL(loyaltyAddress('/status'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-status-title'] })).toBeVisible();
      const details = await tierDetailsOf(page);
      await expect(page.getByText(content.tiers[details.tier]!.title, { exact: true })).toBeVisible();
      // The points figure of the status card (the expiry chart's table below has figures too).
      await expect(page.locator('.loyalty-status__points-value')).toHaveText(
        formatPoints(details.points, language, country),
      );

      // Still a member after a reload, in the customer's own language...
      await page.reload();
      await expect(page).toHaveURL(loyaltyAddress('/status'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-status-title'] })).toBeVisible();
      // ...and the loyalty start now sends the customer to the status page.
      await page.goto(loyaltyUrl('/'));
      await expect(page).toHaveURL(loyaltyAddress('/status'));
      await expect(page.getByRole('heading', { level: 1, name: t['loyalty-status-title'] })).toBeVisible();
    });
  });
});

test.describe('at 320 px in German', () => {
  test.use({ viewport: { width: 320, height: 700 } });

  // Issue 10, finding 16: the signup scrolled sideways once its error showed (WCAG 1.4.10).
  test('the signup with its error fits the width: nothing scrolls sideways', async ({ page }) => {
    const email = 'demo.at@example.com';
    await exclusively(email, async () => {
      const t = texts('de');
      await openSignedIn(page, email);
      await leaveLoyaltyProgramme(page);
      await page.goto(loyaltyUrl('/signup'));
      await page.getByRole('button', { name: t['loyalty-signup-join'], exact: true }).click();
      await expect(page.getByText(t['loyalty-signup-consent-missing']!, { exact: true })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
});
