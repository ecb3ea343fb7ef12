import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '@/features/auth/auth-session';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeFetch, jsonResponse } from '@/testing/fake-fetch';
import { contentCollection, demoLoginStatus } from '@/testing/fixtures';
import { startApp, type StartUpEnvironment } from './bootstrap';
import { createAppServices, type AppServices } from './services';
import { sessionUserOf } from '@/lib/session/session-user';
import { apiPaths } from '@roadpass/contracts';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { retryAfterRenewal } from '@/lib/http/retry-after-renewal';

// The page-data chunk comes a moment late, as over a network: long enough for a renewal started by
// the customer's call to settle first (the race webview.spec.ts met on 1 Dec).
vi.mock('./page-data', async (importOriginal) => {
  await new Promise((resolve) => setTimeout(resolve, 30));
  return importOriginal();
});

const config = {
  environment: 'test',
  identityProvider: { url: 'http://localhost:8080/auth', realm: 'customer', clientId: 'portal-client' },
  errorReporting: { dsn: null, tracesSampleRate: 1, serverErrorStatuses: [500] },
  tagManager: { id: null, url: 'https://www.googletagmanager.com/gtm.js' },
};
const paths = {
  config: 'GET /config.json',
  status: 'GET /api/customer/cuda/customer/v2/login/own/status',
  content: (locale: string) => `GET /api/core-web/content/contentCollection/${locale}/loyalty-program`,
};
const failure = (status: number) => jsonResponse({ status, code: 'x', message: 'x' }, { status });

function fakeAuth(overrides: Partial<AuthSession> = {}): AuthSession {
  return {
    ensureSignedIn: vi.fn(async () => 'signed-in' as const),
    completeSignIn: vi.fn(async () => '/DE/de/myaccount'),
    signInAgain: vi.fn(async () => {}),
    refreshNow: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    stop: vi.fn(),
    preload: vi.fn(),
    ...overrides,
  };
}

function setup(
  options: {
    path?: string;
    search?: string;
    userAgent?: string;
    auth?: AuthSession;
    browserLanguages?: string[];
  } = {},
) {
  const server = createFakeFetch({
    [paths.config]: jsonResponse(config),
    [paths.status]: jsonResponse(demoLoginStatus),
    [paths.content('de-DE')]: jsonResponse(contentCollection('de', 'DE', { 'sign-out': 'Abmelden' })),
    [paths.content('en-DE')]: jsonResponse(contentCollection('en', 'DE', { 'sign-out': 'Sign out' })),
  });
  const services = createAppServices({ fetch: server.fetch });
  const address = { pathname: options.path ?? '/', search: options.search ?? '', href: '' };
  const auth = options.auth ?? fakeAuth();
  const env: StartUpEnvironment = {
    location: () => ({ ...address, href: `http://localhost:3000${address.pathname}${address.search}` }),
    userAgent: options.userAgent ?? 'Mozilla/5.0',
    browserLanguages: options.browserLanguages ?? ['en-US'],
    replace: vi.fn((to: string) => {
      const [pathname, search = ''] = to.split('?');
      address.pathname = pathname!;
      address.search = search ? `?${search}` : '';
    }),
    createAuthSession: vi.fn(() => auth),
  };
  return { server, services, env, auth, address };
}

/**
 * An access token naming its customer and language, with a signature the app never checks (the
 * server does).
 */
function tokenWith(claims: { sub: string; legal_entity: number; locale: string }): string {
  const encode = (part: string) => btoa(part).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode('{"alg":"none"}')}.${encode(JSON.stringify({ ...claims, exp: 4102444800 }))}.signature`;
}

/** A sign-in that gives the HTTP client `token`, as the OIDC client would. */
function signsInWith(services: AppServices, token: string, overrides: Partial<AuthSession> = {}) {
  return vi.fn(() =>
    fakeAuth({
      ...overrides,
      ensureSignedIn: vi.fn(async () => {
        services.http.setToken(token);
        return 'signed-in' as const;
      }),
    }),
  );
}

const state = () => useAppStore.getState();

describe('start-up and readiness', () => {
  let consoleError: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    resetAppStore();
    await i18n.changeLanguage('en');
  });

  it('on a login route is ready after sign-in, the user and the translations of their language', async () => {
    const { services, env, server } = setup({ path: '/', search: '?tracking_opt_out=true' });

    await startApp(services, env);

    expect(state()).toMatchObject({
      appReady: true,
      contentLoaded: true,
      activeLanguage: 'de',
      trackingOptOut: true,
      isWebView: false,
      error: { page: false, overlay: false, banner: false },
    });
    expect(sessionUserOf(services.queryClient)).toEqual(demoLoginStatus.user);
    expect(services.auth).not.toBeNull();
    expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/config.json',
      // Beside the customer: whether a deletion stands in front of every page
      // (docs/product/data-rights.md#close-my-account), so that the guard does not hold the page a
      // round trip longer.
      '/api/customer/cuda/customer/deletion/own',
      '/api/customer/cuda/customer/v2/login/own/status',
      '/api/core-web/content/contentCollection/de-DE/loyalty-program',
    ]);
    // Once the page is ready, the OIDC client loads in the background for the renewals to come.
    expect(services.auth!.preload).toHaveBeenCalledOnce();
  });

  it('is not ready while the translations are still loading', async () => {
    const { services, env, server } = setup();
    let release: () => void = () => {};
    server.reply(
      paths.content('de-DE'),
      () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(jsonResponse(contentCollection('de', 'DE', {})));
        }) as unknown as Response,
    );

    const started = startApp(services, env);
    await vi.waitFor(() => expect(sessionUserOf(services.queryClient)).not.toBeNull());
    expect(state().appReady).toBe(false);

    release();
    await started;
    expect(state().appReady).toBe(true);
  });

  it('on a login route shows banner and page error when the translations fail', async () => {
    const { services, env, server } = setup();
    server.reply(paths.content('de-DE'), failure(503));

    await startApp(services, env);

    expect(state().appReady).toBe(false);
    expect(state().error).toEqual({ page: true, overlay: true, banner: true });
    expect(state().contentLoaded).toBe(true);
    expect(consoleError).toHaveBeenCalledWith(
      'Failed to load content collection from a content management service',
      expect.anything(),
    );
  });

  it('on a route without login is ready even when the translations fail, and notifies', async () => {
    const { services, env, server } = setup({ path: '/web/payment/customer/payment-profiles/' });
    server.reply(paths.content('en-DE'), failure(500));

    await startApp(services, env);

    expect(state().appReady).toBe(true);
    expect(state().error.page).toBe(false);
    expect(state().notify).toEqual({
      title: 'Texts could not be loaded',
      message: 'Some texts may be missing or shown in English. Please try again later.',
    });
    expect(env.createAuthSession).not.toHaveBeenCalled();
  });

  // Issue 7, defect 9: the payment-profiles target page was English for a German customer.
  it('shows a page without login in the browser’s language', async () => {
    const { services, env, server } = setup({
      path: '/web/payment/customer/payment-profiles/',
      browserLanguages: ['de-DE', 'en'],
    });

    await startApp(services, env);

    expect(state()).toMatchObject({ appReady: true, activeLanguage: 'de' });
    expect(server.requests.map((r) => new URL(r.url).pathname)).toContain(
      '/api/core-web/content/contentCollection/de-DE/loyalty-program',
    );
  });

  it('on the loyalty demo needs no sign-in and is ready even when the translations fail', async () => {
    const { services, env, server } = setup({ path: '/customer/loyalty-ui/demo' });
    server.reply(paths.content('en-DE'), failure(503));

    await startApp(services, env);

    expect(state()).toMatchObject({
      appReady: true,
      error: { page: false, overlay: false, banner: false },
    });
    expect(sessionUserOf(services.queryClient)).toEqual(null);
    expect(state().notify).toEqual({
      title: 'Texts could not be loaded',
      message: 'Some texts may be missing or shown in English. Please try again later.',
    });
    expect(env.createAuthSession).not.toHaveBeenCalled();
    expect(server.requests.map((r) => new URL(r.url).pathname)).not.toContain(
      '/api/customer/cuda/customer/v2/login/own/status',
    );
  });

  it('on another loyalty route signs in first', async () => {
    const { services, env } = setup({ path: '/customer/loyalty-ui/status' });

    await startApp(services, env);

    expect(env.createAuthSession).toHaveBeenCalledOnce();
    expect(state()).toMatchObject({ appReady: true });
    expect(sessionUserOf(services.queryClient)).toEqual(demoLoginStatus.user);
  });

  it('on a route without login loads the requested locale and needs no sign-in', async () => {
    const { services, env } = setup({
      path: '/web/payment/customer/payment-profiles/',
      search: '?locale=de_DE',
    });

    await startApp(services, env);

    expect(state()).toMatchObject({ appReady: true, activeLanguage: 'de', notify: null });
    expect(sessionUserOf(services.queryClient)).toBeNull();
    expect(env.createAuthSession).not.toHaveBeenCalled();
  });

  it('stops with a readable configuration error when config.json is invalid', async () => {
    const { services, env, server } = setup();
    server.reply(paths.config, jsonResponse({ ...config, identityProvider: { url: '' } }));

    await startApp(services, env);

    expect(state().appReady).toBe(false);
    expect(state().configProblems).toEqual([
      'identityProvider.url must be a URL (found "")',
      'identityProvider.realm must be a non-empty string (found nothing)',
      'identityProvider.clientId must be a non-empty string (found nothing)',
    ]);
    expect(env.createAuthSession).not.toHaveBeenCalled();
  });

  it('waits for the identity provider when the user has to sign in', async () => {
    const auth = fakeAuth({ ensureSignedIn: vi.fn(async () => 'redirecting' as const) });
    const { services, env, server } = setup({ auth });

    await startApp(services, env);

    expect(state().appReady).toBe(false);
    expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual(['/config.json']);
  });

  it('shows banner and page error when the identity provider cannot be reached', async () => {
    const auth = fakeAuth({ ensureSignedIn: vi.fn(() => Promise.reject(new Error('Failed to fetch'))) });
    const { services, env } = setup({ auth });

    await startApp(services, env);

    expect(state().error).toEqual({ page: true, overlay: true, banner: true });
    expect(consoleError).toHaveBeenCalledWith('Identity provider initialisation failed', expect.any(Error));
  });

  it.each([500, 503, 504, 404])(
    'shows banner and page error when the login check fails with %i',
    async (status) => {
      const { services, env, server, auth } = setup();
      server.reply(paths.status, failure(status));

      await startApp(services, env);

      expect(auth.refreshNow).not.toHaveBeenCalled();
      expect(state()).toMatchObject({
        appReady: false,
        error: { page: true, overlay: true, banner: true },
      });
      expect(sessionUserOf(services.queryClient)).toEqual(null);
      expect(consoleError).toHaveBeenCalledWith("Couldn't load user information", expect.anything());
    },
  );

  it('loads the chunks of the page ahead once signed in, before the customer has loaded', async () => {
    const { services, env } = setup({ path: '/customer/loyalty-ui/status' });
    const preloaded: { path: string; user: unknown }[] = [];
    env.preloadRoute = (path) => preloaded.push({ path, user: sessionUserOf(services.queryClient) });

    await startApp(services, env);

    expect(preloaded).toEqual([{ path: '/customer/loyalty-ui/status', user: null }]);
  });

  it('loads the texts of the language the token names while the customer loads', async () => {
    const token = tokenWith({ sub: 'c', legal_entity: 10, locale: 'de-DE' });
    const { services, env, server } = setup();
    let releaseUser: () => void = () => {};
    server.reply(
      paths.status,
      () => new Promise<Response>((resolve) => (releaseUser = () => resolve(jsonResponse(demoLoginStatus)))),
    );
    env.createAuthSession = signsInWith(services, token);

    const started = startApp(services, env);
    await vi.waitFor(() =>
      expect(server.requests.map((r) => new URL(r.url).pathname)).toContain(
        '/api/core-web/content/contentCollection/de-DE/loyalty-program',
      ),
    );
    expect(sessionUserOf(services.queryClient)).toBeNull();
    releaseUser();
    await started;

    expect(state()).toMatchObject({ appReady: true, activeLanguage: 'de' });
    // Asked once: the texts loaded early are the ones used.
    expect(
      server.requests
        .filter((r) => r.url.includes('/contentCollection/'))
        .map((r) => new URL(r.url).pathname),
    ).toEqual(['/api/core-web/content/contentCollection/de-DE/loyalty-program']);
  });

  it('on the status page asks for its points, tiers and forecast while the customer loads, under the page’s own keys', async () => {
    const token = tokenWith({ sub: 'c', legal_entity: 10, locale: 'de-DE' });
    const { services, env, server } = setup({ path: '/customer/loyalty-ui/status' });
    let releaseUser: () => void = () => {};
    server.reply(
      paths.status,
      () => new Promise<Response>((resolve) => (releaseUser = () => resolve(jsonResponse(demoLoginStatus)))),
    );
    const details = { points: 1 };
    server.reply(`GET ${apiPaths.loyaltyTierDetails('c')}`, jsonResponse(details));
    env.createAuthSession = signsInWith(services, token);

    const started = startApp(services, env);
    const pageCalls = [
      apiPaths.loyaltyTierDetails('c'),
      apiPaths.loyaltyTiers('de-DE'),
      apiPaths.loyaltyExpiryForecast('c'),
    ];
    await vi.waitFor(() =>
      expect(server.requests.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(pageCalls)),
    );
    // Before the customer has answered: beside it, not after.
    expect(sessionUserOf(services.queryClient)).toBeNull();
    releaseUser();
    await started;
    // The page's own query finds the answer (tierDetailsQuery's key, as useTierDetails asks it).
    await vi.waitFor(() =>
      expect(services.queryClient.getQueryData(loyaltyKeys.tierDetails('c'))).toEqual(details),
    );
    expect(services.queryClient.getQueryState(loyaltyKeys.tiers('de-DE', 'DE'))).toBeDefined();
  });

  it('on the status page with a refused token, its data calls and the customer’s share one renewal', async () => {
    const token = tokenWith({ sub: 'c', legal_entity: 10, locale: 'de-DE' });
    const { services, env, server } = setup({ path: '/customer/loyalty-ui/status' });
    for (const path of [
      paths.status,
      'GET /api/customer/cuda/customer/deletion/own',
      `GET ${apiPaths.loyaltyTierDetails('c')}`,
      `GET ${apiPaths.loyaltyTiers('de-DE')}`,
      `GET ${apiPaths.loyaltyExpiryForecast('c')}`,
    ])
      server.reply(path, failure(401));
    // Renewal on a 401 as the webview installs it (webview-token.ts): the host is asked, and refuses.
    const askHost = vi.fn(() => Promise.reject(new Error('the host gave no token')));
    retryAfterRenewal(services.http, askHost);
    env.createAuthSession = signsInWith(services, token, {
      refreshNow: vi.fn(() => Promise.reject(new Error('The webview host renews the token'))),
    });

    await startApp(services, env);
    await vi.waitFor(() =>
      expect(server.requests.map((r) => new URL(r.url).pathname)).toContain(
        apiPaths.loyaltyExpiryForecast('c'),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(askHost).toHaveBeenCalledOnce();
  });

  it('asks for no page data on an account page', async () => {
    const token = tokenWith({ sub: 'c', legal_entity: 10, locale: 'de-DE' });
    const { services, env, server } = setup({ path: '/DE/de/myaccount' });
    env.createAuthSession = signsInWith(services, token);

    await startApp(services, env);

    expect(server.requests.filter((r) => /loyalty-service|\/loyalty\/tier/.test(r.url))).toEqual([]);
    expect(server.requests.some((r) => r.url.includes('/login/own/status'))).toBe(true);
  });

  it('shows the error screens in the language the token names when the customer cannot be loaded', async () => {
    const token = tokenWith({ sub: 'c', legal_entity: 3, locale: 'fr-FR' });
    const { services, env, server } = setup({ browserLanguages: ['en-US'] });
    services.auth = null;
    env.createAuthSession = signsInWith(services, token);
    server.reply(paths.status, failure(500));
    server.reply(
      paths.content('fr-FR'),
      jsonResponse(contentCollection('fr', 'FR', { 'error-banner-confirm': 'Réessayer' })),
    );

    await startApp(services, env);

    expect(state().error).toEqual({ page: true, overlay: true, banner: true });
    expect(state().activeLanguage).toBe('fr');
    expect(i18n.t('error-banner-confirm')).toBe('Réessayer');
  });

  it('renews the token when the login check answers 401, then continues', async () => {
    const { services, env, server, auth } = setup();
    server.reply(paths.status, failure(401), jsonResponse(demoLoginStatus));

    await startApp(services, env);

    expect(auth.refreshNow).toHaveBeenCalledOnce();
    expect(state().appReady).toBe(true);
  });

  it('finishes the sign-in on /login/callback and goes to the wanted address', async () => {
    const { services, env, auth } = setup({ path: '/login/callback', search: '?code=c&state=s' });

    await startApp(services, env);

    expect(auth.completeSignIn).toHaveBeenCalledWith('http://localhost:3000/login/callback?code=c&state=s');
    expect(env.replace).toHaveBeenCalledWith('/DE/de/myaccount');
    expect(auth.ensureSignedIn).not.toHaveBeenCalled();
    expect(state().appReady).toBe(true);
  });

  it('after the callback, reads locale and tracking opt-out from the address it returns to', async () => {
    const auth = fakeAuth({
      completeSignIn: vi.fn(async () => '/customer/loyalty-ui/status?locale=en&tracking_opt_out=true'),
    });
    const { services, env, server } = setup({ path: '/login/callback', search: '?code=c&state=s', auth });

    await startApp(services, env);

    expect(server.requests.map((r) => `GET ${new URL(r.url).pathname}`)).toContain(paths.content('en-DE'));
    expect(state().activeLanguage).toBe('en');
    expect(state().trackingOptOut).toBe(true);
  });

  it('leaves the callback address and shows the error when the sign-in cannot be finished', async () => {
    const auth = fakeAuth({ completeSignIn: vi.fn(() => Promise.reject(new Error('No matching state'))) });
    const { services, env } = setup({ path: '/login/callback', search: '?code=c&state=s', auth });

    await startApp(services, env);

    expect(env.replace).toHaveBeenCalledWith('/');
    expect(state().error).toEqual({ page: true, overlay: true, banner: true });
    expect(state().appReady).toBe(false);
  });

  it('in a webview waits for the host to set the token', async () => {
    const { services, env, server } = setup({ userAgent: 'Mozilla/5.0 RoadpassApp WebView' });

    const started = startApp(services, env);
    await vi.waitFor(() => expect(window.setAuthToken).toBeTypeOf('function'));
    expect(state().isWebView).toBe(true);
    expect(state().appReady).toBe(false);

    window.setAuthToken!('host-token');
    await started;

    expect(env.createAuthSession).not.toHaveBeenCalled();
    expect(state()).toMatchObject({ appReady: true, token: 'host-token' });
    expect(server.requests[1]!.headers.get('authorization')).toBe('Bearer host-token');
    expect(sessionStorage.getItem('roadpass.token')).toBe('host-token');
    delete window.setAuthToken;
  });
});
