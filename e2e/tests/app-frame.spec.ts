import { expect, test } from '@playwright/test';
import { appPaths } from '@roadpass/contracts';
import { DEMO_PASSWORD, LOYALTY_BASE, openSignedIn, signInOnLoginPage, texts } from './support.js';

// Issue 7, "one app, not two": the account area and the loyalty programme in one frame.
test.describe('one frame for the account and the loyalty programme', () => {
  test('a customer goes from the account to the programme and back, and signs out from a loyalty page', async ({
    page,
  }) => {
    const de = texts('de');
    await openSignedIn(page, 'demo.de@example.com');
    const frame = page.getByRole('navigation', { name: de['nav-label'] });

    // From the account home: the programme's card and the frame both lead there.
    await page.getByRole('link', { name: new RegExp(de['account-loyalty-title']!) }).click();
    await expect(page).toHaveURL(new RegExp(`${LOYALTY_BASE}/status`));
    await expect(frame.getByRole('link', { name: de['nav-loyalty'], exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // Back to the account from the loyalty programme, then the brand leads home too.
    await frame.getByRole('link', { name: de['nav-account'], exact: true }).click();
    await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dora Demo' })).toBeVisible();
    await frame.getByRole('link', { name: de['nav-loyalty'], exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${LOYALTY_BASE}/status`));
    await page.getByRole('link', { name: de['nav-home'], exact: true }).click();
    await expect(page).toHaveURL(/\/DE\/de\/myaccount$/);

    await page.goto(`${LOYALTY_BASE}/history`);
    await frame.getByRole('button', { name: de['sign-out'] }).click();
    await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
    await page.goto(`${LOYALTY_BASE}/status`);
    // The sign-in page after signing out speaks the signed-out customer's language (issue 17).
    await signInOnLoginPage(page, 'demo.de@example.com', DEMO_PASSWORD, 'de');
    await expect(page).toHaveURL(new RegExp(`${LOYALTY_BASE}/status`));
  });

  test('the frame is one slim row that leaves the content its space', async ({ page }) => {
    await openSignedIn(page, 'demo.hu@example.com');
    const bar = await page.locator('.top-bar').boundingBox();
    expect(bar!.height).toBeLessThanOrEqual(64);
    const viewport = page.viewportSize()!;
    // Nothing of the frame is cut off or scrolls sideways, in Hungarian at phone size too.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    for (const item of await page.locator('.top-bar__nav > *').all()) {
      const box = (await item.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
  });

  test('inside the native app the host owns navigation: no frame', async ({ page }) => {
    // The development host page signs in as the native app does and opens the account in its webview
    // with the bearer token it holds (a token bound to the browser's DPoP key would not do: decision
    // 0044, docs/native-bridge.md#dpop).
    await page.goto(appPaths.devWebviewHost);
    await page.getByRole('button', { name: 'Sign in as the app' }).click();
    await signInOnLoginPage(page, 'demo.at@example.com');
    await expect(page.locator('#host-account')).toContainText('Signed in');
    await page.getByLabel('Path').fill('/');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const app = page.frameLocator('#app-frame');
    await expect(app.getByRole('heading', { level: 1, name: 'Lukas Gruber' })).toBeVisible();
    await expect(app.locator('.top-bar')).toHaveCount(0);
  });
});

test.describe('moving between pages', () => {
  // Issue 10, finding 13: after a navigation the focus stayed on the link of the page before.
  test('puts the focus on the new page’s heading and announces its title; a page load starts at the top', async ({
    page,
  }) => {
    const de = texts('de');
    await openSignedIn(page, 'demo.de@example.com');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: de['skip-to-content'] })).toBeFocused();

    await page.getByRole('link', { name: de['nav-loyalty'], exact: true }).click();
    const heading = page.getByRole('heading', { level: 1, name: de['loyalty-status-title'] });
    await expect(heading).toBeFocused();
    await expect(page.locator('[aria-live="polite"][aria-atomic="true"]').first()).toContainText(
      de['loyalty-status-title']!,
    );

    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Dora Demo' })).toBeFocused();
  });
});
