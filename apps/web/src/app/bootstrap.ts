import type { RuntimeConfig } from '@roadpass/contracts';
import { isAuthCallbackPath, isLoyaltyAddress, isPublicPath, routes } from '@/config/routes';
import { loadRuntimeConfig } from '@/config/runtime-config';
import { loadSessionUser, UserLoadError } from '@/features/auth/api/get-login-status';
import { createAuthSession, type AuthSession, type SignInOutcome } from '@/features/auth/auth-session';
import { readEnvironment } from '@/lib/environment/environment';
import {
  CONTENT_COLLECTION_ERROR,
  contentCollectionQuery,
  loadTranslations,
} from '@/lib/i18n/content-collection';
import { useHostBridge } from '@/lib/native-bridge/host-bridge-state';
import { applyBuiltInEnglish, i18n } from '@/lib/i18n/i18n';
import { resolveCountryLanguage, signInUiLocales } from '@/lib/i18n/locale';
import { decodeClaims, tokenLanguageOf } from '@/lib/oidc/jwt';
import { readStoredSession, storedSessionKey } from '@/lib/oidc/stored-session';
import { useAppStore } from '@/lib/state/app-store';
import { supportReference } from '@/lib/http';
import { readCountryLanguage } from '@/lib/storage/storage';
import { preloadNativeNavigation, preloadRouteOf } from './router';
import { deletionQuery } from '@/features/account-data-rights/api/deletion-query';
import type { AppServices } from './services';
import { sessionUserOf } from '@/lib/session/session-user';

export interface StartUpEnvironment {
  /** The current address (read again after start-up navigations). */
  location: () => { pathname: string; search: string; href: string };
  userAgent: string;
  /** The browser's languages, for pages shown before (or without) sign-in. */
  browserLanguages: readonly string[];
  /** Replaces the current address (the router follows). */
  replace: (to: string) => void;
  createAuthSession: (config: RuntimeConfig, services: AppServices) => AuthSession;
  /** Loads the chunks of the page at an address ahead (they then render without waiting). */
  preloadRoute?: (pathname: string) => void;
}

export const browserStartUpEnvironment: StartUpEnvironment = {
  location: () => window.location,
  userAgent: navigator.userAgent,
  browserLanguages: navigator.languages ?? [navigator.language],
  replace: (to) => window.history.replaceState(null, '', to),
  // A failed chunk shows later, where the page renders (its error boundary), not here.
  preloadRoute: (pathname) => void preloadRouteOf(pathname).catch(() => undefined),
  createAuthSession: (config, services) =>
    createAuthSession({
      // oidc-client-ts is a chunk of its own, loaded when first needed (decision 0017).
      loadUserManager: async () => {
        const { createUserManager } = await import('@/lib/oidc/user-manager');
        const userManager = createUserManager(config);
        // Sign-in state older than staleStateAgeInSeconds (60 minutes, docs/product/constants.md#business-constants) is dropped.
        void userManager.clearStaleState();
        return userManager;
      },
      readStoredSession: () => readStoredSession(sessionStorage, storedSessionKey(config)),
      // The proof code is a small chunk of its own, shared with the OIDC client (decision 0044).
      proofSigner: async (htm, url, token, nonce) => {
        const { apiProofSigner } = await import('@/lib/oidc/dpop');
        const sign = await apiProofSigner(config.identityProvider.clientId);
        if (!sign) throw new Error('The key of this browser session is missing');
        return sign(htm, url, token, nonce);
      },
      hasProofKey: async () => {
        const { apiProofSigner } = await import('@/lib/oidc/dpop');
        return (await apiProofSigner(config.identityProvider.clientId)) !== undefined;
      },
      http: services.http,
      // The sign-in page in the customer's language before we know them (issue 7: always en); what
      // the address and this device do not name, the identity provider chooses (issue 17).
      uiLocales: () =>
        signInUiLocales({
          requestedLocale: new URLSearchParams(window.location.search).get('locale'),
          preference: readCountryLanguage(),
        }),
    }),
};

/**
 * Start-up (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions), after the payment-marker check in main.tsx: load and validate /config.json,
 * read tracking opt-out and webview mode, then either
 * - a route without login: load translations; ready even if they fail (then a notification), or
 * - a login route: sign in (or finish the sign-in on /login/callback), load the user, load the
 *   translations of the customer's language; ready after both. Failures show the error banner and page.
 */
export async function startApp(services: AppServices, env: StartUpEnvironment): Promise<void> {
  const store = useAppStore.getState();
  let environment = readEnvironment(env.location().search, env.userAgent);
  store.setEnvironment(environment);
  // Inside the native apps: the code that reports each navigation to the host, ready before the first
  // page shows (a chunk of its own: a phone browser never loads it).
  const nativeNavigation = environment.isWebView ? preloadNativeNavigation() : undefined;

  const locale = () =>
    resolveCountryLanguage({
      // Until the customer is loaded (or when that fails), the token names their language.
      user: sessionUserOf(services.queryClient) ?? tokenLanguageOf(services.http.getToken()),
      pathname: env.location().pathname,
      requestedLocale: environment.requestedLocale,
      preference: readCountryLanguage(),
      isWebView: environment.isWebView,
      browserLanguages: env.browserLanguages,
    });
  const translate = () => {
    const { locale: lc, country } = locale();
    // Pages without a customer (the demo, say) show this country's content.
    if (!sessionUserOf(services.queryClient)) useAppStore.getState().setHomeLocation(country);
    return loadTranslations({
      http: services.http,
      queryClient: services.queryClient,
      locale: lc,
      legalEntityIso: country,
    });
  };
  /** For error screens: their texts in the right language if the content service answers. */
  const translateQuietly = () => translate().catch(() => undefined);
  const fail = async (message: string, error: unknown) => {
    console.error(message, error);
    await translateQuietly();
    useAppStore.getState().setError(true, {}, supportReference(error));
  };

  const configResult = await loadRuntimeConfig(services.http);
  if (!configResult.ok) {
    console.error('Invalid runtime configuration', configResult.problems);
    await translateQuietly();
    store.setConfigProblems(configResult.problems);
    return;
  }
  services.config = configResult.config;

  if (isPublicPath(env.location().pathname)) {
    env.preloadRoute?.(env.location().pathname);
    try {
      await translate();
    } catch (error) {
      console.error(CONTENT_COLLECTION_ERROR, error);
      // Built-in English texts, never raw keys (a failed chunk leaves the defaults in the code).
      await applyBuiltInEnglish().catch(() => undefined);
      store.showNotify({
        title: i18n.t('error-msg-translations', 'Texts could not be loaded'),
        message: i18n.t(
          'error-msg-translations-description',
          'Some texts may be missing or shown in English. Please try again later.',
        ),
      });
    }
    store.setContentLoaded(true);
    await nativeNavigation;
    store.setAppReady(true);
    return;
  }

  if (environment.isWebView) {
    // The bridge's host side is a chunk of its own: only webviews load it.
    const { installWebViewTokenSetter } = await import('@/features/auth/webview-token');
    await installWebViewTokenSetter(services.http);
  } else {
    const auth = env.createAuthSession(configResult.config, services);
    services.auth = auth;
    services.signInAgain = () => auth.signInAgain();
    if (isAuthCallbackPath(env.location().pathname)) {
      try {
        env.replace(await auth.completeSignIn(env.location().href));
        // The address the customer wanted is back: its query (locale, tracking_opt_out) counts now,
        // not the callback's code and state.
        environment = readEnvironment(env.location().search, env.userAgent);
        store.setEnvironment(environment);
      } catch (error) {
        // Leave the callback address so that Retry (a reload) starts a fresh sign-in.
        env.replace(routes.root.build());
        await fail('Sign-in could not be completed', error);
        return;
      }
    } else {
      let outcome: SignInOutcome;
      try {
        outcome = await auth.ensureSignedIn();
      } catch (error) {
        // docs/product/errors.md#error-catalogue: written to the console (not to error reporting); the shell offers Retry.
        await fail('Identity provider initialisation failed', error);
        return;
      }
      if (outcome === 'redirecting') return;
    }
  }

  // Signed in: the page's chunks load while the customer and the texts do.
  env.preloadRoute?.(env.location().pathname);

  // A loyalty page's own first data needs nothing but the token (page-data.ts): the status page's
  // figures came a round trip after the customer. Its code is a chunk of its own with the loyalty
  // pages' queries, so the account pages' first load does not carry it; the loyalty addresses'
  // index.html preloads it (decision 0070), so it is here at once. Waited for, so that its calls go
  // out together with the customer's: refused together, they share one renewal
  // (retry-after-renewal.ts), and a host that refuses the token is asked once (webview.spec.ts).
  const { pathname } = env.location();
  const pageData = isLoyaltyAddress(pathname)
    ? await import('./page-data').catch(() => undefined)
    : undefined;

  // The token names the customer's language: their texts load while the customer does (issue 10:
  // one round trip less). Should the customer's language differ, the right texts load after.
  if (tokenLanguageOf(services.http.getToken())) {
    const expected = locale();
    void services.queryClient.prefetchQuery(
      contentCollectionQuery(services.http, expected.locale, expected.country),
    );
    const uuid = decodeClaims(services.http.getToken())?.sub;
    if (uuid && pageData)
      pageData.prefetchPageData(services.queryClient, services.http, pathname, {
        uuid,
        language: expected.language,
        country: expected.country,
      });
  }

  // Whether a deletion is scheduled, which would stand in front of any page
  // (docs/product/data-rights.md#close-my-account), loads beside the customer: the app's guard holds
  // the page until it answers, so asked after the customer it cost every signed-in start a round
  // trip of its own (170 ms on slow 4G: performance.md#http2). Should the server refuse the token,
  // both calls share one renewal (retry-after-renewal.ts): a host that refuses is asked once.
  void services.queryClient.prefetchQuery(deletionQuery(services.http));

  for (;;) {
    try {
      await loadSessionUser({
        http: services.http,
        queryClient: services.queryClient,
        refreshToken: () =>
          services.auth
            ? services.auth.refreshNow()
            : Promise.reject(new Error('The webview host renews the token')),
      });
      break;
    } catch (error) {
      // Webview: the host gave no token; its "session expired" state shows, and the start-up goes on
      // once the customer has asked the host again and got one.
      if (environment.isWebView && useHostBridge.getState().expired) {
        await translateQuietly();
        await new Promise<void>((resolve) => {
          const stop = useHostBridge.subscribe(({ expired }) => {
            if (!expired) resolve(stop());
          });
        });
        continue;
      }
      await fail(error instanceof UserLoadError ? error.message : 'Loading the user failed', error);
      return;
    }
  }

  try {
    await translate();
  } catch (error) {
    console.error(CONTENT_COLLECTION_ERROR, error);
    store.setError(true, {}, supportReference(error));
    return;
  }
  store.setContentLoaded(true);
  await nativeNavigation;
  store.setAppReady(true);
  // The page is shown: now the OIDC client can load for the renewals to come.
  services.auth?.preload();
}
