import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  apiPaths,
  appPaths,
  authorityOf,
  CSRF_HEADER,
  LOYALTY_CORE_CONSENT,
  type CustomerConsent,
  type LoyaltyTierDetails,
  type RuntimeConfig,
} from '@roadpass/contracts';

export const DEMO_PASSWORD = 'Demo-2026!';

/** Session storage key of the app's access token (apps/web/src/lib/storage/storage.ts). */
const TOKEN_KEY = 'roadpass.token';

/** The sign-in page's texts in one language (content/identity-provider/{lang}.json). */
export function loginTexts(language: string): Record<string, string> {
  const file = new URL(`../../content/identity-provider/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/**
 * Signs in on the identity provider's login page (the app sends the browser there), which speaks
 * `language`: the browser's in a fresh browser, the signed-out customer's after a sign-out.
 */
export async function signInOnLoginPage(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  language = 'en',
): Promise<void> {
  const t = loginTexts(language);
  await expect(page).toHaveURL(/\/auth\/realms\/customer\//);
  await page.getByLabel(t.emailLabel!, { exact: true }).fill(email);
  await page.getByLabel(t.passwordLabel!, { exact: true }).fill(password);
  await page.getByRole('button', { name: t.submit, exact: true }).click();
}

/**
 * Starts the customer's session at the identity provider without showing its page: the sign-in form
 * is fetched and posted by the page's own request client, which shares the browser context's cookies.
 * The app then signs in as it does for a customer already signed in at the provider: to the provider
 * and back, with the app's own authorization request, code exchange and DPoP key. The sign-in page
 * itself is the subject of sign-in.spec.ts, keyboard-journey.spec.ts and the flows that call
 * signInOnLoginPage; skipping it elsewhere took 0.3-0.5 s off each of about 150 sign-ins
 * (decision 0003, update of 30 Nov).
 */
async function startProviderSession(page: Page, email: string): Promise<void> {
  // Read for each sign-in, never cached per worker: a spec may use a server of its own (step-up.spec.ts
  // does, on another port), and a customer of that server is unknown to the first one's provider; a
  // worker-wide copy sent step-up's customers there ("The e-mail or password is incorrect").
  const response = await page.request.get('/config.json');
  expect(response.status(), '/config.json').toBe(200);
  const config = (await response.json()) as RuntimeConfig;
  // PKCE as the app sends it; the verifier is never needed, since nobody redeems the code.
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const authorize = new URL(`${authorityOf(config)}/protocol/openid-connect/auth`);
  authorize.search = new URLSearchParams({
    client_id: config.identityProvider.clientId,
    redirect_uri: new URL(appPaths.authCallback, authorize).href,
    response_type: 'code',
    // The app's scopes (apps/web/src/lib/oidc/user-manager.ts): with others the provider could ask
    // the app's own request for a consent, and every sign-in here would fail at the heading.
    scope: 'openid profile email',
    state: randomBytes(16).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const loginPage = await page.request.get(authorize.href);
  const action = /<form method="post" action="([^"]+)"/.exec(await loginPage.text())?.[1];
  expect(action, `a sign-in form at ${loginPage.url()}`).toBeDefined();
  // The provider answers with redirects that end at the app's callback with a code, which nobody
  // redeems: the session cookie is what counts.
  const signedIn = await page.request.post(new URL(action!.replaceAll('&amp;', '&'), loginPage.url()).href, {
    form: { email, password: DEMO_PASSWORD },
  });
  // When the provider shows its page again, its alert says why.
  const landed = new URL(signedIn.url()).pathname;
  const why =
    landed === appPaths.authCallback
      ? ''
      : (/role="alert"[^>]*>\s*([^<]+)/.exec(await signedIn.text())?.[1]?.trim() ?? 'no alert on the page');
  expect(landed, `signed in at the identity provider ${why}`).toBe(appPaths.authCallback);
}

/**
 * Opens the app signed in; resolves when the account home shows its heading. `throughLoginPage`
 * signs in on the provider's page as a customer does; otherwise the session starts without the page
 * (startProviderSession).
 */
export async function openSignedIn(
  page: Page,
  email: string,
  path = '/',
  { throughLoginPage = false } = {},
): Promise<void> {
  if (throughLoginPage) {
    await page.goto(path);
    await signInOnLoginPage(page, email);
  } else {
    await startProviderSession(page, email);
    await page.goto(path);
  }
  await expect(page).toHaveURL(/\/[A-Z]{2}\/[a-z]{2}\/myaccount$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Holds back each request matching `url` (a route glob) for `ms` before sending it on. Answers a test
 * for the browser's own order: whether the first request for a path matching `path` went out while
 * the held-back one had not been sent yet, i.e. beside it rather than after it. Ask before the
 * navigation that makes both requests.
 */
export async function askedWhileHeldBack(
  page: Page,
  url: string,
  ms = 800,
): Promise<(path: RegExp) => Promise<boolean>> {
  let sent = false;
  await page.route(url, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    sent = true;
    await route.continue();
  });
  return (path) =>
    page.waitForRequest((request) => path.test(new URL(request.url()).pathname)).then(() => !sent);
}

/** Collects the Content Security Policy violations Chromium reports on the page's console. */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** The app's texts in one language, from the content files the server serves. */
export function texts(language: string): Record<string, string> {
  const file = new URL(`../../content/translations/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** Fills a text's {{placeholders}}, e.g. fill('{{shown}} of {{total}}', { shown: 100, total: 250 }). */
export function fill(text: string | undefined, values: Record<string, string | number>): string {
  expect(text, 'the text exists in the translations').toBeDefined();
  return text!.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

/**
 * Makes the server fail this page's requests whose path starts with `pathPrefix` (test mode only).
 * The fault is scoped to the page through the X-Fault-Scope header, so tests running side by side
 * against the same server are not affected.
 */
export async function injectFault(
  page: Page,
  fault: { pathPrefix: string; status: number; times?: number; method?: string; code?: string },
): Promise<void> {
  const scope = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await page.setExtraHTTPHeaders({ 'X-Fault-Scope': scope });
  const res = await page.request.post('/__test__/faults', { data: { times: 0, ...fault, scope } });
  expect(res.status()).toBe(204);
}

/**
 * A customer of the test's own (a country's demo profile under a new address, password Demo-2026!;
 * test mode only): for flows that end sessions, change the password or add passkeys.
 */
export async function newCustomer(request: APIRequestContext, country = 'DE'): Promise<string> {
  const res = await request.post('/__test__/customers', { data: { country } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { email: string }).email;
}

// ---------------------------------------------------------------------------------------------------
// The loyalty app (issue 3)

/** Where the loyalty app lives (docs/product/addresses-and-routes.md#screens-and-routes). */
export const LOYALTY_BASE = appPaths.loyaltyBase;

/** A loyalty address, e.g. loyaltyUrl('/status', 'en') → /customer/loyalty-ui/status?locale=en. */
export function loyaltyUrl(path: string, locale?: string): string {
  return `${LOYALTY_BASE}${path}${locale ? `?locale=${locale}` : ''}`;
}

/** A pattern for the current address on a loyalty route, with or without a query. */
export function loyaltyAddress(path: string): RegExp {
  const escaped = `${LOYALTY_BASE}${path}`.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`${escaped}(\\?.*)?$`);
}

/**
 * Opens a loyalty address signed in, as a link into the programme does: the app signs in and comes
 * back to the address, optionally in a chosen language (the locale query parameter,
 * docs/product/addresses-and-routes.md#screens-and-routes) without touching the customer's saved
 * language.
 */
export async function openLoyalty(page: Page, email: string, path: string, locale?: string): Promise<void> {
  await startProviderSession(page, email);
  await page.goto(loyaltyUrl(path, locale));
  // The address is the same before the app goes to the provider and after it is back: the page has
  // come once the app holds a token and shows the page's heading.
  await expect
    .poll(() => page.evaluate((key) => sessionStorage.getItem(key) !== null, TOKEN_KEY).catch(() => false))
    .toBe(true);
  await expect(page).toHaveURL(loyaltyAddress(path));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** The loyalty content texts (tier names, rewards) in one language, as the content files hold them. */
export interface LoyaltyContentTexts {
  tiers: Record<string, { title: string; text: string }>;
  rewards: Record<string, { title: string; description: string }>;
}

export function loyaltyTexts(language: string): LoyaltyContentTexts {
  const file = new URL(`../../content/loyalty/texts/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as LoyaltyContentTexts;
}

/** The programme's tiers and rewards as the content file defines them (content/loyalty/programme.json). */
export interface LoyaltyProgramme {
  tiers: { slug: string; threshold: number }[];
  rewards: {
    slug: string;
    unlockedIn: string;
    partnerCode: boolean;
    partnerName: string;
    legalEntities: string[];
  }[];
}

export function loyaltyProgramme(): LoyaltyProgramme {
  const file = new URL('../../content/loyalty/programme.json', import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as LoyaltyProgramme;
}

/** The title of a consent in one language, as the consent content files hold it. */
export function consentTitle(language: string, slug: string): string {
  const file = new URL(`../../content/consents/texts/${language}.json`, import.meta.url);
  const consents = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { title: string }>;
  return consents[slug]!.title;
}

/**
 * Points as the app writes them: the way the customer's language writes numbers, whatever the
 * country, e.g. 4500 → "4.500" (de), "4,500" (en).
 */
export function formatPoints(points: number, language: string, _country?: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(points);
}

/**
 * The signed-in customer's API, called the way the app calls it: the bearer token from session storage
 * (read again for every call: access tokens live 20 s in the test server) and the anti-forgery token
 * from a GET response.
 */
export interface CustomerApi {
  uuid: string;
  legalEntityId: number;
  get<T>(path: string): Promise<{ status: number; body: T }>;
  patch<T>(path: string, data: unknown): Promise<{ status: number; body: T }>;
}

/**
 * A call made inside the page with the app's session: its access token from session storage and, the
 * token being DPoP-bound (decision 0044), a proof signed with the browser's key from IndexedDB, as the
 * app makes them. `proofKey: 'other'` signs with a new key instead (a thief's).
 */
export async function callAsTheApp(
  page: Page,
  method: string,
  path: string,
  options: {
    data?: unknown;
    headers?: Record<string, string>;
    scheme?: 'DPoP' | 'Bearer';
    proofKey?: 'app' | 'other';
  } = {},
): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  return page.evaluate(
    async ({ method, path, options, tokenKey }) => {
      const token = sessionStorage.getItem(tokenKey);
      if (!token) throw new Error('the app keeps no access token in session storage');
      const b64 = (bytes: ArrayBuffer | Uint8Array) =>
        btoa(String.fromCharCode(...new Uint8Array(bytes)))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const json = (value: unknown) => b64(new TextEncoder().encode(JSON.stringify(value)));
      const appKeys = await new Promise<CryptoKeyPair | undefined>((resolve, reject) => {
        const open = indexedDB.open('roadpass-dpop');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keys')) return resolve(undefined);
          const get = db.transaction('keys').objectStore('keys').get('portal-client');
          get.onsuccess = () => resolve((get.result as { keys?: CryptoKeyPair } | undefined)?.keys);
          get.onerror = () => reject(get.error);
        };
      });
      const keys =
        options.proofKey === 'other'
          ? await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
          : appKeys;
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      const scheme = options.scheme ?? (keys ? 'DPoP' : 'Bearer');
      headers.authorization = `${scheme} ${token}`;
      const url = new URL(path, location.origin).href;
      if (scheme === 'DPoP' && keys) {
        const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keys.publicKey);
        const payload = {
          jti: crypto.randomUUID(),
          htm: method,
          htu: url.split('?')[0],
          iat: Math.floor(Date.now() / 1000),
          ath: b64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))),
        };
        const input = `${json({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } })}.${json(payload)}`;
        const signature = await crypto.subtle.sign(
          { name: 'ECDSA', hash: 'SHA-256' },
          keys.privateKey,
          new TextEncoder().encode(input),
        );
        headers.dpop = `${input}.${b64(signature)}`;
      }
      if (options.data !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(url, {
        method,
        headers,
        ...(options.data === undefined ? {} : { body: JSON.stringify(options.data) }),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      const answered: Record<string, string> = {};
      response.headers.forEach((value, name) => (answered[name] = value));
      return { status: response.status, body, headers: answered };
    },
    { method, path, options, tokenKey: TOKEN_KEY },
  );
}

export async function customerApi(page: Page): Promise<CustomerApi> {
  const status = await callAsTheApp(page, 'GET', apiPaths.loginStatus);
  expect(status.status).toBe(200);
  const { user } = status.body as { user: { uuid: string; legalEntityId: number } };

  const api: CustomerApi = {
    uuid: user.uuid,
    legalEntityId: user.legalEntityId,
    async get<T>(path: string) {
      const response = await callAsTheApp(page, 'GET', path);
      return { status: response.status, body: response.body as T };
    },
    async patch<T>(path: string, data: unknown) {
      const csrf = await callAsTheApp(page, 'GET', apiPaths.loginStatus);
      const csrfToken = csrf.headers[CSRF_HEADER.toLowerCase()];
      expect(csrfToken, `a GET answers with ${CSRF_HEADER}`).toBeTruthy();
      const response = await callAsTheApp(page, 'PATCH', path, {
        data,
        headers: { [CSRF_HEADER]: csrfToken! },
      });
      return { status: response.status, body: response.body as T };
    },
  };
  return api;
}

/**
 * Makes the signed-in customer a non-member by revoking the core loyalty consent, so that a joining
 * flow can run again (repeated runs, or a customer who joined in the demo data).
 */
export async function leaveLoyaltyProgramme(page: Page): Promise<void> {
  const api = await customerApi(page);
  const saved = await api.patch<CustomerConsent>(apiPaths.customerConsent(api.uuid, LOYALTY_CORE_CONSENT), {
    legalEntityId: api.legalEntityId,
    granted: false,
  });
  expect(saved.status).toBe(200);
  expect(saved.body.granted).toBe(false);
}

/** The signed-in customer's tier details as the API reports them. */
export async function tierDetailsOf(page: Page): Promise<LoyaltyTierDetails> {
  const api = await customerApi(page);
  const details = await api.get<LoyaltyTierDetails>(apiPaths.loyaltyTierDetails(api.uuid));
  expect(details.status).toBe(200);
  return details.body;
}

/** Grants the page's context clipboard access (the Copy button writes, the test reads it back). */
export async function allowClipboard(context: BrowserContext): Promise<void> {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
}

/**
 * Waits until the carousel's `card` has settled: aligned with the start of the carousel (phones) or
 * centred in it (wide screens), and still there a moment later (the elastic ease overshoots on its way).
 */
export async function expectSettledOn(carousel: Locator, card: Locator): Promise<void> {
  const aligned = async () => {
    const [outer, inner] = await Promise.all([carousel.boundingBox(), card.boundingBox()]);
    if (!outer || !inner) return false;
    const startAligned = Math.abs(inner.x - outer.x) <= 1;
    const centred = Math.abs(inner.x + inner.width / 2 - (outer.x + outer.width / 2)) <= 1;
    return startAligned || centred;
  };
  await expect(async () => {
    expect(await aligned()).toBe(true);
    await card.page().waitForTimeout(150);
    expect(await aligned()).toBe(true);
  }).toPass({ timeout: 5_000 });
}

/** Every address the page's main frame showed, including the router's in-app changes. */
export function recordAddresses(page: Page): string[] {
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) addresses.push(new URL(frame.url()).pathname);
  });
  return addresses;
}

/**
 * Runs `work` while no other test of this run (in any worker) runs work under the same name: for
 * tests that change shared state of one customer, e.g. joining the programme, when --repeat-each
 * runs copies of a test side by side. The lock is a directory next to the run's database.
 */
export async function exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
  const locks = `${process.env.E2E_DATA_DIR ?? path.join(tmpdir(), 'roadpass-e2e')}.locks`;
  mkdirSync(locks, { recursive: true });
  const lock = path.join(locks, name.replace(/[^\w.-]/g, '_'));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Another test holds it; the test's own timeout bounds the wait.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Who reads each language: a demo customer of a country that speaks it (docs/product/demo-data.md). */
export const readers: Record<string, { email: string; country: string }> = {
  nl: { email: 'demo.nl@example.com', country: 'NL' },
  de: { email: 'demo.de@example.com', country: 'DE' },
  fr: { email: 'demo.fr@example.com', country: 'FR' },
  it: { email: 'demo.it@example.com', country: 'IT' },
  es: { email: 'demo.es@example.com', country: 'ES' },
  hu: { email: 'demo.hu@example.com', country: 'HU' },
  da: { email: 'demo.dk@example.com', country: 'DK' },
  en: { email: 'demo.at@example.com', country: 'AT' },
};

/**
 * Chromium's virtual platform authenticator (DevTools protocol) that verifies the user and keeps
 * discoverable credentials: the passkey specs' stand-in for a phone's or laptop's.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** A free port on loopback, for a spec that starts a server of its own. */
export { freePort } from '../free-port.js';
