import { expect, test, type Page } from '@playwright/test';
import { routes } from '../../apps/web/src/config/routes.js';
import { fill, newCustomer, openSignedIn, texts } from './support.js';

// Issue 18 §3 and §1 (docs/product/security.md#sessions): two browsers signed in as one customer (a
// customer of this test's own, German); each lists both sessions with "this device" on its own; signing
// out the other one, and "sign out of all other devices", makes the other browser's next API call
// refused and its app go to the sign-in page.
const t = texts('de');

async function openSecurity(page: Page): Promise<void> {
  await page.goto(routes.account.security.build('DE', 'de'));
  await expect(page.getByRole('heading', { level: 1, name: t['security-title'] })).toBeVisible();
}

/** The other browser's next API call (the security page's list) is refused: its app asks to sign in. */
async function expectSignedOut(page: Page): Promise<void> {
  await page.getByRole('link', { name: t['account-menu-security-title'] }).first().click();
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  await expect(page.locator('#password')).toBeVisible();
}

test('signing out the other device, then all other devices, ends their access at once', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const email = await newCustomer(request, 'DE');
  const { baseURL, viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const otherContext = await browser.newContext({
    baseURL,
    viewport,
    userAgent,
    isMobile,
    hasTouch,
    deviceScaleFactor,
  });
  const other = await otherContext.newPage();
  try {
    await openSignedIn(page, email);
    await openSignedIn(other, email);

    await openSecurity(page);
    const sessions = page.locator('.security__session');
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: t['security-this-device']! })).toHaveCount(1);
    // Chromium on Linux (or Android at phone size), from this machine's shortened address.
    await expect(sessions.first()).toContainText('Chrom');
    await expect(sessions.first()).toContainText('127.0.0.x');

    // Sign out the other one: its next API call is refused.
    const otherSession = sessions.filter({ hasNotText: t['security-this-device']! });
    await otherSession.getByRole('button', { name: new RegExp(`^${t['security-sign-out']}`) }).click();
    await expect(page.getByRole('status')).toHaveText(t['security-session-ended']!);
    await expect(sessions).toHaveCount(1);
    // This device alone: the card ends with it, no rule and no empty space under it (28 Nov).
    await expect(sessions.first()).toHaveCSS('border-bottom-width', '0px');
    await expectSignedOut(other);

    // In again there, then "sign out of all other devices" here, after the confirmation.
    await other.locator('#email').fill(email);
    await other.locator('#password').fill('Demo-2026!');
    await other.locator('form button[type="submit"]').click();
    await expect(other).toHaveURL(/\/myaccount\/security$/);
    await page.reload();
    await expect(sessions).toHaveCount(2);
    await page.getByRole('button', { name: t['security-sign-out-others'] }).click();
    const dialog = page.getByRole('dialog', { name: t['security-confirm-title'] });
    await expect(dialog).toContainText(fill(t['security-confirm-text'], { count: 1 }));
    await dialog.getByRole('button', { name: t['security-sign-out-others'] }).click();
    await expect(page.getByRole('status')).toHaveText(fill(t['security-others-ended'], { count: 1 }));
    await expect(sessions).toHaveCount(1);
    await expect(sessions).toContainText(t['security-this-device']!);
    await expectSignedOut(other);
    // This browser goes on.
    await page.reload();
    await expect(sessions).toHaveCount(1);
  } finally {
    await otherContext.close();
  }
});
