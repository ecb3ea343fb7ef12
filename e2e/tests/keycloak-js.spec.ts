import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page, type Request } from '@playwright/test';
import { loginTexts, signInOnLoginPage } from './support.js';

/**
 * keycloak-js, the official Keycloak adapter as installed from the registry, unmodified, against the
 * embedded realm (issue 20 §1, docs/keycloak-clients.md). It runs on a small page of the app's origin
 * (a Keycloak client's page; redirect URIs anywhere on the app's origin are allowed for the portal
 * client) that this test serves itself: the browser's network layer answers `/keycloak-js/…` (CDP
 * Fetch, which also sees the realm's redirects back to the page; Playwright's page.route does not).
 * An upgrade of keycloak-js that no longer works with the realm fails here.
 */

const EMAIL = 'demo.es@example.com';
const PAGE_PATH = '/keycloak-js/';

const keycloakSource = readFileSync(createRequire(import.meta.url).resolve('keycloak-js'), 'utf8');

/** The page: keycloak-js with the init options of the query (`?onLoad=check-sso`), driven by the test. */
const harness = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>keycloak-js client</title></head>
<body><main><h1>keycloak-js client</h1><output id="state">starting</output></main>
<script type="module">
import Keycloak from '${PAGE_PATH}keycloak.js';
// What the realm's frames told this page (3p-cookie check, session status), in order.
window.frameMessages = [];
window.addEventListener('message', (event) => {
  if (event.origin === location.origin && typeof event.data === 'string') window.frameMessages.push(event.data);
});
const kc = new Keycloak({ url: location.origin + '/auth', realm: 'customer', clientId: 'portal-client' });
window.kc = kc;
kc.onAuthLogout = () => { window.authLogout = true; };
const onLoad = new URLSearchParams(location.search).get('onLoad');
const started = performance.now();
window.ready = kc.init(onLoad ? { onLoad } : {}).then(
  (authenticated) => {
    window.initMs = performance.now() - started;
    document.getElementById('state').textContent = authenticated ? 'signed in' : 'signed out';
    return authenticated;
  },
  (error) => {
    document.getElementById('state').textContent = 'error: ' + (error && error.message);
    throw error;
  },
);
</script></body></html>`;

interface KeycloakWindow {
  kc: {
    authenticated?: boolean;
    token?: string;
    refreshToken?: string;
    tokenParsed?: Record<string, unknown>;
    idTokenParsed?: Record<string, unknown>;
    refreshTokenParsed?: Record<string, unknown>;
    sessionId?: string;
    login(options?: { locale?: string }): Promise<void>;
    logout(): Promise<void>;
    accountManagement(): Promise<void>;
    updateToken(minValidity: number): Promise<boolean>;
    loadUserInfo(): Promise<Record<string, unknown>>;
    loadUserProfile(): Promise<Record<string, unknown>>;
  };
  ready: Promise<boolean>;
  initMs: number;
  frameMessages: string[];
  authLogout?: boolean;
}

/** Serves the page and keycloak-js at `/keycloak-js/` on the app's origin, for every request of the page. */
async function serveClientPage(page: Page, baseURL: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string } }) => {
    const { pathname } = new URL(event.request.url);
    const [body, type] =
      pathname === `${PAGE_PATH}keycloak.js`
        ? [keycloakSource, 'text/javascript; charset=utf-8']
        : [harness, 'text/html; charset=utf-8'];
    void cdp.send('Fetch.fulfillRequest', {
      requestId: event.requestId,
      responseCode: 200,
      responseHeaders: [
        { name: 'content-type', value: type },
        { name: 'cache-control', value: 'no-store' },
      ],
      body: Buffer.from(body).toString('base64'),
    });
  });
  await cdp.send('Fetch.enable', {
    patterns: [{ urlPattern: `${baseURL}${PAGE_PATH}*`, requestStage: 'Request' }],
  });
}

/** Opens the page and waits for keycloak-js's init; returns whether it is authenticated. */
async function openClient(page: Page, query = ''): Promise<boolean> {
  await page.goto(`${PAGE_PATH}${query}`);
  return ready(page);
}

/**
 * keycloak-js's init result on the page; when init sends the browser to the realm and back (check-sso
 * with a session), the result of the page it comes back to.
 */
async function ready(page: Page): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      // Waited for and read in one call within one document: a page that navigates in between
      // (check-sso going to the realm and back) throws here and is read again, instead of answering
      // for the next document, where it is not set yet.
      return await page.evaluate(async () => {
        const client = window as unknown as KeycloakWindow;
        while (client.ready === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        return client.ready;
      });
    } catch (error) {
      if (attempt > 3 || !/context was destroyed|navigat/i.test(String(error))) throw error;
      await page.waitForLoadState();
    }
  }
}

/** Requests of the page to the realm's session-status and third-party-cookie frames. */
function watchFrames(page: Page): string[] {
  const seen: string[] = [];
  page.on('requestfinished', (request: Request) => {
    const { pathname } = new URL(request.url());
    if (/login-status-iframe\.html$|3p-cookies\/step[12]\.html$/.test(pathname)) {
      void request
        .response()
        .then((response) => seen.push(`${pathname.split('/').pop()} ${response?.status()}`));
    }
  });
  return seen;
}

test.describe('keycloak-js against the realm', () => {
  test('default options: init, login in the asked language, tokens, userinfo, profile, session iframe, logout back to the page', async ({
    page,
    baseURL,
  }) => {
    await serveClientPage(page, baseURL!);
    const frames = watchFrames(page);

    // init with the defaults: the third-party-cookie check answers at once (no 10 s timeout).
    expect(await openClient(page)).toBe(false);
    const initMs = await page.evaluate(() => (window as unknown as KeycloakWindow).initMs);
    expect(initMs).toBeLessThan(5_000);
    expect(await page.evaluate(() => (window as unknown as KeycloakWindow).frameMessages)).toContain(
      'supported',
    );

    // login with a locale: the realm's sign-in page speaks it.
    await page.evaluate(() => void (window as unknown as KeycloakWindow).kc.login({ locale: 'it' }));
    await expect(page).toHaveURL(/\/auth\/realms\/customer\/login-actions\//);
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await signInOnLoginPage(page, EMAIL, undefined, 'it');

    // Back on the page it came from, signed in, with Keycloak's tokens.
    await expect(page).toHaveURL(new RegExp(`${PAGE_PATH}$`));
    expect(await ready(page)).toBe(true);
    const tokens = await page.evaluate(() => {
      const { kc } = window as unknown as KeycloakWindow;
      return {
        access: kc.tokenParsed!,
        id: kc.idTokenParsed!,
        refresh: kc.refreshTokenParsed!,
        sessionId: kc.sessionId,
        token: kc.token,
        refreshToken: kc.refreshToken,
      };
    });
    expect(tokens.access).toMatchObject({
      typ: 'Bearer',
      azp: 'portal-client',
      preferred_username: EMAIL,
      email: EMAIL,
      email_verified: true,
      given_name: 'Javier',
      family_name: 'García',
      realm_access: { roles: [] },
      resource_access: {},
      'allowed-origins': [new URL(baseURL!).origin],
      acr: '1',
    });
    expect(tokens.access.session_state).toBe(tokens.sessionId);
    expect(tokens.id).toMatchObject({ typ: 'ID', azp: 'portal-client', sid: tokens.sessionId });
    expect(tokens.refresh).toMatchObject({ typ: 'Refresh', azp: 'portal-client', sid: tokens.sessionId });

    // updateToken: a new access token and a rotated refresh token.
    expect(await page.evaluate(() => (window as unknown as KeycloakWindow).kc.updateToken(-1))).toBe(true);
    const renewed = await page.evaluate(() => {
      const { kc } = window as unknown as KeycloakWindow;
      return { token: kc.token, refreshToken: kc.refreshToken };
    });
    expect(renewed.token).not.toBe(tokens.token);
    expect(renewed.refreshToken).not.toBe(tokens.refreshToken);

    expect(await page.evaluate(() => (window as unknown as KeycloakWindow).kc.loadUserInfo())).toMatchObject({
      sub: tokens.access.sub,
      email: EMAIL,
      preferred_username: EMAIL,
      name: 'Javier García',
    });
    expect(
      await page.evaluate(() => (window as unknown as KeycloakWindow).kc.loadUserProfile()),
    ).toMatchObject({
      id: tokens.access.sub,
      username: EMAIL,
      email: EMAIL,
      firstName: 'Javier',
      lastName: 'García',
      emailVerified: true,
    });

    // The session-status iframe: loaded, and answering "unchanged" for this session.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as KeycloakWindow).frameMessages))
      .toContain('unchanged');
    expect(frames).toEqual(expect.arrayContaining(['step1.html 200', 'login-status-iframe.html 200']));

    // logout with its defaults: back to the page it came from, the sign-in session ended.
    await page.evaluate(() => void (window as unknown as KeycloakWindow).kc.logout());
    await expect(page).toHaveURL(new RegExp(`${PAGE_PATH}$`));
    expect(await ready(page)).toBe(false);
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('KEYCLOAK_SESSION');
    // A new login shows the form (in the signed-out customer's language, issue 17).
    await page.evaluate(() => void (window as unknown as KeycloakWindow).kc.login());
    await expect(page).toHaveURL(/\/auth\/realms\/customer\/login-actions\//);
    await expect(page.getByLabel(loginTexts('es').passwordLabel!, { exact: true })).toBeVisible();
  });

  test('check-sso: signed out without a redirect, signed in silently, account management to the app', async ({
    page,
    baseURL,
  }) => {
    await serveClientPage(page, baseURL!);
    const realmPages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/login-actions/')) realmPages.push(frame.url());
    });

    // No session: the session iframe says so, and the page stays without going to the realm.
    expect(await openClient(page, '?onLoad=check-sso')).toBe(false);
    expect(await page.evaluate(() => (window as unknown as KeycloakWindow).initMs)).toBeLessThan(5_000);
    expect(realmPages).toEqual([]);

    await page.evaluate(() => void (window as unknown as KeycloakWindow).kc.login());
    await signInOnLoginPage(page, EMAIL);
    await expect(page).toHaveURL(/\/keycloak-js\/\?onLoad=check-sso$/);
    expect(await ready(page)).toBe(true);
    expect(realmPages).toHaveLength(1);

    // A new page load with the browser's session: signed in without the sign-in form.
    expect(await openClient(page, '?onLoad=check-sso')).toBe(true);
    expect(realmPages).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as KeycloakWindow).kc.tokenParsed?.email)).toBe(
      EMAIL,
    );

    // accountManagement: the app's account home.
    await page.evaluate(() => void (window as unknown as KeycloakWindow).kc.accountManagement());
    await expect(page).toHaveURL(/\/ES\/es\/myaccount$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Javier García' })).toBeVisible();
  });
});
