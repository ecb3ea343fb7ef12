import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { apiPaths, appPaths } from '@roadpass/contracts';
import { LOYALTY_BASE, loyaltyTexts, signInOnLoginPage, texts } from './support.js';

// The webview host page (apps/server/dev-assets/webview-host) plays the native app around the app in
// webview mode; these tests drive it as iOS and as Android (docs/native-bridge.md).

const email = 'demo.de@example.com';
const t = texts('de');

type Platform = 'ios' | 'android';

interface Host {
  page: Page;
  app: FrameLocator;
  /** The messages the host received from the app, as `name payload-json`. */
  received(): Promise<string[]>;
  open(path: string, options?: { invalidFirst?: boolean }): Promise<void>;
  /** Opens any address of the app (open() takes loyalty paths). */
  openAddress(address: string): Promise<void>;
}

async function signedInHost(page: Page, platform: Platform, account = email): Promise<Host> {
  await page.goto(appPaths.devWebviewHost);
  await page.getByRole('button', { name: 'Sign in as the app' }).click();
  await signInOnLoginPage(page, account);
  await expect(page).toHaveURL(new RegExp(`${appPaths.devWebviewHost}$`));
  await expect(page.locator('#host-account')).toContainText('Signed in');
  await page.getByRole('radio', { name: platform === 'ios' ? /iOS/ : /Android/ }).check();
  const app = page.frameLocator('#app-frame');
  return {
    page,
    app,
    received: async () =>
      (await page.locator('#log li[data-direction="in"]').allTextContents()).map((line) =>
        line.replace(/^← /, ''),
      ),
    async open(path, { invalidFirst = false } = {}) {
      await page.getByLabel('Start with an invalid token').setChecked(invalidFirst);
      await page.getByLabel('Path').fill(`${LOYALTY_BASE}${path}`);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
    },
    async openAddress(address) {
      await page.getByLabel('Path').fill(address);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
    },
  };
}

const statusHeading = (app: FrameLocator) =>
  app.getByRole('heading', { level: 1, name: t['loyalty-status-title'] });

for (const platform of ['ios', 'android'] as const) {
  test.describe(`inside the ${platform} app`, () => {
    test('signs in with the host token; a call answering 401 asks the host, gets a token and succeeds', async ({
      page,
    }) => {
      const host = await signedInHost(page, platform);
      const refreshes = page.waitForRequest((request) => request.url().includes('/openid-connect/token'));
      await host.open('/status', { invalidFirst: true });
      await expect(statusHeading(host.app)).toBeVisible();
      // The first token was refused by the API: the app asked the host, which renewed its session.
      await refreshes;
      const messages = await host.received();
      expect(messages[0]).toMatch(
        /^refreshAuthToken \{"v":1,"type":"refreshAuthToken","requestId":"r\d+"\}$/,
      );
      // Arriving at status clears the host's history.
      expect(messages).toContain('clearHistory {"v":1,"type":"clearHistory"}');
      await expect(host.app.getByText(t['webview-session-expired-title']!)).toHaveCount(0);
    });

    test('a host that refuses the token shows the clear state; asking again recovers', async ({ page }) => {
      const host = await signedInHost(page, platform);
      await page.getByLabel('Refuse').check();
      await host.open('/status', { invalidFirst: true });
      // The customer is not known yet (no token was accepted): the texts of the browser's language.
      const en = texts('en');
      const state = host.app.getByRole('alert').filter({ hasText: en['webview-session-expired-title'] });
      // The app starts, meets the 401, asks the host and hears the refusal: slow on a busy machine.
      await expect(state).toBeVisible({ timeout: 30_000 });
      await expect(state).toContainText(en['webview-session-expired-text']!);
      await expect(host.app.getByText(en['error-banner-title']!)).toHaveCount(0);
      await expect(host.app.getByRole('status', { name: /loading|laden/i })).toHaveCount(0);
      expect(await host.received()).toEqual([expect.stringMatching(/^refreshAuthToken /)]);

      await page.getByLabel('Answer with a new token').check();
      await state.getByRole('button', { name: en['webview-session-retry'] }).click();
      await expect(statusHeading(host.app)).toBeVisible();
      await expect(state).toHaveCount(0);
    });

    test('history: cleared on status and loading, forward and backward reported elsewhere', async ({
      page,
    }) => {
      const host = await signedInHost(page, platform);
      await host.open('/status');
      await expect(statusHeading(host.app)).toBeVisible();
      const historyHeading = host.app.getByRole('heading', { level: 1, name: t['loyalty-link-history'] });
      await host.app.getByRole('link', { name: t['loyalty-link-history'] }).click();
      await expect(historyHeading).toBeVisible();
      await host.app.getByRole('link', { name: t['loyalty-back-to-status']! }).click();
      await expect(statusHeading(host.app)).toBeVisible();
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(historyHeading).toBeVisible();
      await page.getByRole('button', { name: 'Forward' }).click();
      await expect(statusHeading(host.app)).toBeVisible();

      const clear = 'clearHistory {"v":1,"type":"clearHistory"}';
      const history = `${LOYALTY_BASE}/history`;
      await expect
        .poll(host.received)
        .toEqual([
          clear,
          `didNavigateForward {"v":1,"type":"didNavigateForward","path":"${history}"}`,
          clear,
          `didNavigateBackward {"v":1,"type":"didNavigateBackward","path":"${history}"}`,
          clear,
        ]);

      // Loading clears it too (a member goes on from there to status, which clears it again).
      await page.getByRole('button', { name: 'Clear' }).click();
      await host.open('/loading');
      await expect.poll(async () => (await host.received())[0]).toBe(clear);
      expect(new Set(await host.received())).toEqual(new Set([clear]));
    });

    test('a non-member lands on onboarding, which clears the history', async ({ page }) => {
      const host = await signedInHost(page, platform, 'demo.nl@example.com');
      await host.open('/onboarding');
      await expect(host.app.getByRole('heading', { level: 1 })).toBeVisible();
      await expect.poll(host.received).toEqual(['clearHistory {"v":1,"type":"clearHistory"}']);
    });

    test('copies a partner code through the bridge', async ({ page }) => {
      const host = await signedInHost(page, platform);
      const slug = 'velovia-bike-rides';
      await host.open(`/reward/${slug}`);
      await expect(
        host.app.getByRole('heading', { level: 1, name: loyaltyTexts('de').rewards[slug]!.title }),
      ).toBeVisible();
      const codeSection = host.app.getByRole('region', { name: t['loyalty-partner-code-title'] });
      await codeSection.getByRole('button', { name: t['loyalty-partner-code-copy'] }).click();
      await expect(
        host.app.getByRole('status').filter({ hasText: t['loyalty-partner-code-copied'] }),
      ).toBeVisible();
      const copied = (await host.received()).find((line) => line.startsWith('copyToClipboard '));
      const text = (JSON.parse(copied!.slice('copyToClipboard '.length)) as { text: string }).text;
      expect(text).toMatch(/\S{4,}/);
      await expect(codeSection.getByText(text, { exact: true })).toBeVisible();
      await expect(page.locator('#clipboard')).toHaveText(text);
      // The first page of this visit is no move: the host was asked to check its history instead.
      expect(await host.received()).toContain('checkHistory {"v":1,"type":"checkHistory"}');
    });

    test('safe-area insets pad the layout; push flags drive the loyalty notification offer', async ({
      page,
    }) => {
      const host = await signedInHost(page, platform);
      await host.open('/status');
      await expect(statusHeading(host.app)).toBeVisible();
      // No top bar in a webview (the host has its own): the page itself keeps clear of the insets.
      await expect(host.app.locator('.top-bar')).toHaveCount(0);
      const main = host.app.locator('main');
      const padding = () =>
        main.evaluate((element) => {
          const style = getComputedStyle(element);
          return [style.paddingTop, style.paddingBottom, style.paddingLeft];
        });
      expect(await padding()).toEqual(['20px', '96px', '16px']);
      await page.getByLabel('Top').fill('47');
      await page.getByLabel('Bottom').fill('34');
      await page.getByLabel('Left').fill('12');
      await page.getByRole('button', { name: 'Send insets' }).click();
      await expect.poll(padding).toEqual([`${20 + 47}px`, `${96 + 34}px`, `${16 + 12}px`]);

      // Pushes are off for loyalty: the status page offers them; the host turns them on.
      const offer = host.app.getByRole('button', { name: t['webview-push-enable'] });
      await expect(offer).toHaveCount(0);
      await page.getByRole('button', { name: 'Send flags' }).click();
      await offer.click();
      await expect(host.app.getByRole('status').filter({ hasText: t['webview-push-on'] })).toBeVisible();
      await expect(offer).toHaveCount(0);
      expect(await host.received()).toContain(
        'enableLoyaltyPushNotifications {"v":1,"type":"enableLoyaltyPushNotifications"}',
      );
    });

    // Issue 17: the account pages sent nothing; docs/product/addresses-and-routes.md#screens-and-routes asks for a message on every non-loyalty route.
    test('account pages report forward and backward navigation to the host', async ({ page }) => {
      const host = await signedInHost(page, platform);
      const home = appPaths.accountHome('DE', 'de');
      const profile = `${home}/profile`;
      await host.openAddress(home);
      const profileLink = host.app.getByRole('link', {
        name: new RegExp(`^${t['account-menu-profile-title']}`),
      });
      await profileLink.click();
      await expect(host.app.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();
      await host.app.getByRole('link', { name: t['account-back'] }).click();
      await expect(profileLink).toBeVisible();
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(host.app.getByRole('heading', { level: 1, name: t['profile-title'] })).toBeVisible();

      await expect
        .poll(host.received)
        .toEqual([
          'checkHistory {"v":1,"type":"checkHistory"}',
          `didNavigateForward {"v":1,"type":"didNavigateForward","path":"${profile}"}`,
          `didNavigateForward {"v":1,"type":"didNavigateForward","path":"${home}"}`,
          `didNavigateBackward {"v":1,"type":"didNavigateBackward","path":"${profile}"}`,
        ]);
    });

    test('offline: a clear notice in the customer’s language, then recovery by itself when back online', async ({
      page,
      context,
    }) => {
      const host = await signedInHost(page, platform);
      await host.open('/status');
      await expect(statusHeading(host.app)).toBeVisible();
      // The history page's code is loaded once (a route chunk cannot come offline).
      const historyHeading = host.app.getByRole('heading', { level: 1, name: t['loyalty-link-history'] });
      await host.app.getByRole('link', { name: t['loyalty-link-history'] }).click();
      await expect(historyHeading).toBeVisible();
      await host.app.getByRole('link', { name: t['loyalty-back-to-status']! }).click();
      await expect(statusHeading(host.app)).toBeVisible();

      await context.setOffline(true);
      const notice = host.app.getByRole('status').filter({ hasText: t['webview-offline-title'] });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText(t['webview-offline-text']!);
      await host.app.getByRole('link', { name: t['loyalty-link-history'] }).click();
      await expect(notice).toBeVisible();
      await context.setOffline(false);
      await expect(notice).toHaveCount(0);
      await expect(historyHeading).toBeVisible();
      await expect(host.app.getByRole('alert')).toHaveCount(0);
    });
  });
}

test.describe('inside the app, issue 17', () => {
  test('“Manage payment methods” opens the host’s payment screen; a page it lets through is German, with a way back', async ({
    page,
  }) => {
    const host = await signedInHost(page, 'ios');
    await page.getByRole('radio', { name: /^Deny all/ }).check();
    await host.openAddress(`${appPaths.accountHome('DE', 'de')}/payment`);
    const title = host.app.getByRole('heading', { level: 1, name: t['payment-list-title'] });
    await expect(title).toBeVisible();
    const manage = host.app.getByRole('link', { name: t['payment-manage'] });

    // The host catches the payment redirect's address, as the native apps do: the app stays put.
    await manage.click();
    const paymentScreen = page.getByRole('region', { name: 'Native payment screen' });
    await expect(paymentScreen).toBeVisible();
    await expect(paymentScreen).toContainText(
      `${appPaths.paymentProfilesRedirect}?is_webview=true&locale=de_DE&consent=none`,
    );
    await expect(title).toBeVisible();
    await page.getByRole('button', { name: 'Close the payment screen' }).click();

    // A host that lets the address load: the page says so in German, without the consent banner and
    // without sending someone inside the app to the app, and goes back.
    await page.getByLabel('Catch the payment address').uncheck();
    await manage.click();
    await expect(
      host.app.getByRole('heading', { level: 1, name: t['payment-profiles-title'] }),
    ).toBeVisible();
    await expect(host.app.getByText(t['payment-profiles-webview-text']!)).toBeVisible();
    await expect(host.app.getByText(t['payment-profiles-text']!)).toHaveCount(0);
    await expect(host.app.getByRole('region', { name: t['consent-banner-title'] })).toHaveCount(0);
    await host.app.getByRole('button', { name: t['payment-profiles-back'] }).click();
    await expect(title).toBeVisible();
  });

  test('a page whose code could not load offline comes back by itself when the connection returns', async ({
    page,
    context,
  }) => {
    const host = await signedInHost(page, 'android');
    await host.open('/status');
    await expect(statusHeading(host.app)).toBeVisible();
    await context.setOffline(true);
    // The history page's code was never loaded: it cannot come now.
    await host.app.getByRole('link', { name: t['loyalty-link-history'] }).click();
    await expect(host.app.getByRole('status').filter({ hasText: t['webview-offline-title'] })).toBeVisible();
    await expect(host.app.getByRole('img', { name: t['error-page-label'] })).toBeVisible();
    await context.setOffline(false);
    await expect(host.app.getByRole('heading', { level: 1, name: t['loyalty-link-history'] })).toBeVisible();
    await expect(host.app.getByRole('img', { name: t['error-page-label'] })).toHaveCount(0);
    await expect(host.app.getByRole('alert')).toHaveCount(0);
  });
});

// The host's consent choice (docs/native-bridge.md, "Consent from the host"), passed by the host page
// as the native apps pass it: the consent and tracking_opt_out query parameters of the start address.
test.describe('consent passed by the host', () => {
  // No consent cookie: only the host's choice can keep the banner away.
  test.use({ storageState: { cookies: [], origins: [] } });
  const en = texts('en');

  /** Requests of the app in the frame to the tag manager, the SDK chunk and the error report tunnel. */
  function watchThirdParties(page: Page) {
    const seen = { tagManager: [] as string[], sdkChunk: [] as string[], tunnel: [] as string[] };
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === appPaths.devTagManagerScript) seen.tagManager.push(pathname);
      if (/error-reporting-sdk[^/]*\.js$/.test(pathname)) seen.sdkChunk.push(pathname);
      if (pathname === apiPaths.errorReportEnvelope) seen.tunnel.push(pathname);
    });
    return seen;
  }

  /** Opens the public demo page in the frame, as the iOS app would, with the host's consent choice. */
  async function openWithConsent(page: Page, choice: RegExp, optOut = false) {
    await page.goto(appPaths.devWebviewHost);
    await page.getByRole('radio', { name: choice }).check();
    await page.getByLabel('Tracking opt-out').setChecked(optOut);
    await page.getByLabel('Path').fill(`${LOYALTY_BASE}/demo`);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const app = page.frameLocator('#app-frame');
    await expect(app.getByRole('heading', { level: 1 })).toBeVisible();
    // The consent manager has run once its footer entry shows (it loads when the app is idle).
    await expect(app.getByRole('button', { name: en['consent-privacy-settings'] })).toBeVisible();
    return app;
  }

  const banner = (app: FrameLocator) => app.getByRole('region', { name: en['consent-banner-title'] });
  const reportBug = (app: FrameLocator) => app.getByRole('button', { name: en['feedback-report-bug'] });

  test('deny all: no banner, no tag manager, no SDK chunk, nothing to the tunnel', async ({ page }) => {
    const seen = watchThirdParties(page);
    const app = await openWithConsent(page, /^Deny all/);
    await page.waitForTimeout(1500);
    await expect(banner(app)).toHaveCount(0);
    await expect(reportBug(app)).toHaveCount(0);
    expect(seen).toEqual({ tagManager: [], sdkChunk: [], tunnel: [] });
  });

  test('error reporting granted: the SDK chunk loads and "Report a Bug" is there, no tag manager', async ({
    page,
  }) => {
    const seen = watchThirdParties(page);
    const app = await openWithConsent(page, /^Error reporting only/);
    await expect(reportBug(app)).toBeVisible();
    expect(seen.sdkChunk).toHaveLength(1);
    expect(seen.tagManager).toEqual([]);
    await expect(banner(app)).toHaveCount(0);
  });

  test('tracking_opt_out=true wins over accept all: neither loads', async ({ page }) => {
    const seen = watchThirdParties(page);
    const app = await openWithConsent(page, /^Accept all/, true);
    await page.waitForTimeout(1500);
    await expect(reportBug(app)).toHaveCount(0);
    expect(seen).toEqual({ tagManager: [], sdkChunk: [], tunnel: [] });
  });
});
