import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, fill, loginTexts, loyaltyAddress, texts } from './support.js';

// Issue 10, the project's own checks: one whole journey by keyboard alone. No click, no fill: Tab
// moves the focus, Enter and typing do the rest, and every step is checked where a customer would
// see it. Sign in, the account home, the loyalty status, tiers, history with "Load more", sign out.

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`${target.toString()} never got the focus after ${limit} presses of Tab`);
}

test('a whole journey by keyboard alone: sign in, account, loyalty status, tiers, history, sign out', async ({
  page,
}) => {
  const de = texts('de');
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);

  // The sign-in page of the identity provider.
  await tabTo(page, page.getByLabel('E-mail'));
  await page.keyboard.type('demo.de@example.com');
  await tabTo(page, page.getByLabel('Password', { exact: true }));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);

  // The account home, on to the loyalty programme.
  await tabTo(page, page.getByRole('link', { name: new RegExp(de['account-loyalty-title']!) }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(loyaltyAddress('/status'));
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeFocused();

  // Tiers and rewards, and back.
  await tabTo(page, page.getByRole('link', { name: de['loyalty-link-tier-overview'], exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(loyaltyAddress('/tier-overview'));
  await expect(heading).toBeFocused();
  // The back link comes after every tier and reward of the page.
  await tabTo(page, page.getByRole('link', { name: de['loyalty-back-to-status'], exact: true }), 400);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(loyaltyAddress('/status'));

  // The history: 250 entries, 100 per page; "Load more" keeps the focus while it loads.
  await tabTo(page, page.getByRole('link', { name: de['loyalty-link-history'], exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(loyaltyAddress('/history'));
  const list = page.getByRole('list', { name: de['loyalty-history-list-label'] });
  await expect(list).toBeVisible();
  const loadMore = page.getByRole('button', { name: de['loyalty-history-load-more'] });
  await tabTo(page, loadMore, 400);
  await page.keyboard.press('Enter');
  await expect(loadMore).toBeFocused();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: fill(de['loyalty-history-loaded'], { shown: 200, total: 250 }) }),
  ).toBeVisible();

  // Sign out from the frame.
  await tabTo(page, page.getByRole('button', { name: de['sign-out'], exact: true }), 400);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  // In the signed-out customer's language (issue 17).
  await expect(page.getByLabel(loginTexts('de').emailLabel!, { exact: true })).toBeVisible();
});
