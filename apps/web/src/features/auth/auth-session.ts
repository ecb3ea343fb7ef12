import type { UserManager } from 'oidc-client-ts';
import { safeReturnPath } from '@/config/routes';
import { retryAfterRenewal, type HttpClient, type ProofSigner } from '@/lib/http';
import {
  EXPIRY_MIN_VALIDITY_SECONDS,
  createTokenRefresher,
  isTransientRefreshFailure,
} from '@/lib/oidc/token-refresh';
import { hasExpired, type SessionTokens } from '@/lib/oidc/stored-session';

/** oidc-client-ts rejects a callback whose ID token nonce does not match the stored one. */
function isInvalidNonce(error: unknown): boolean {
  return error instanceof Error && /nonce/i.test(error.message);
}

export type SignInOutcome = 'signed-in' | 'redirecting';

export interface AuthSession {
  /** Login required (docs/product/states.md#states-and-transitions): uses the stored tokens, renews them, or leaves for the identity provider. */
  ensureSignedIn(): Promise<SignInOutcome>;
  /** Finishes the sign-in on /login/callback; resolves with the address the user wanted. */
  completeSignIn(url: string): Promise<string>;
  /**
   * Step-up (docs/product/security.md#step-up): a new sign-in now (`max_age=0`: the identity
   * provider asks for the password even with a session), back to the current address.
   */
  signInAgain(): Promise<void>;
  /** Renews the token now (refresh_token grant); a failure signs the user out. */
  refreshNow(): Promise<void>;
  /** RP-initiated logout with id_token_hint, back to `${origin}/`. */
  signOut(): Promise<void>;
  stop(): void;
  /** Loads the OIDC client in the background (after the page is shown), so a renewal is quick. */
  preload(): void;
}

export interface AuthSessionOptions {
  /**
   * The OIDC client (oidc-client-ts), loaded on first need: a customer whose stored token is still
   * valid sees the page without it; it loads for a renewal, a sign-in redirect or a callback.
   */
  loadUserManager: () => Promise<UserManager>;
  /** The session stored by an earlier page load, read without the OIDC client. */
  readStoredSession: () => SessionTokens | null;
  http: HttpClient;
  /** The languages to ask the identity provider for (ui_locales); undefined leaves the choice to it. */
  uiLocales: () => string | undefined;
  /** Signs the API calls' DPoP proofs with the browser's key, for DPoP-bound tokens (decision 0044). */
  proofSigner?: ProofSigner;
  /**
   * Whether the browser still holds the key a DPoP-bound session was made with. Site data cleared in
   * part (IndexedDB, not the tab's session storage) leaves tokens that nothing can sign for.
   */
  hasProofKey?: () => Promise<boolean>;
  /** Where to come back to after a sign-in; the current address by default. */
  currentPath?: () => string;
  origin?: string;
}

/**
 * The browser's sign-in session: oidc-client-ts does the protocol, this module does the app's rules:
 * the token goes to the HTTP layer (which reports it to the app state), renewal follows docs/product/constants.md#business-constants, a
 * failed renewal signs the user out, an invalid nonce clears the token.
 */
export function createAuthSession(options: AuthSessionOptions): AuthSession {
  const { http } = options;
  let manager: Promise<UserManager> | undefined;
  const userManager = () => (manager ??= options.loadUserManager());
  const origin = options.origin ?? window.location.origin;
  const currentPath = options.currentPath ?? (() => window.location.pathname + window.location.search);
  let current: SessionTokens | null = null;

  function handOver(user: SessionTokens | null): void {
    current = user;
    const bound = /^dpop$/i.test(user?.token_type ?? '');
    http.setProofSigner(bound ? (options.proofSigner ?? null) : null);
    http.setToken(user?.access_token ?? null);
  }

  async function signInRedirect(extra: { max_age?: number } = {}): Promise<void> {
    const uiLocales = options.uiLocales();
    return (await userManager()).signinRedirect({
      ...extra,
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
      state: { returnTo: safeReturnPath(currentPath()) },
    });
  }

  const refresher = createTokenRefresher({
    // oidc-client-ts sets expires_at from the response's expires_in on this device's clock; the
    // token's exp claim is on the server's clock and would loop on a device whose clock is off.
    getExpiresAt: () => current?.expires_at,
    refresh: async () => {
      if (!current?.refresh_token) throw new Error('No refresh token to renew the session with');
      // With a refresh token in the store, signinSilent uses the refresh_token grant (no iframe).
      const renewed = await (await userManager()).signinSilent();
      if (!renewed) throw new Error('The identity provider returned no session');
      handOver(renewed);
    },
    clearToken: () => {
      handOver(null);
      void userManager().then((manager) => manager.removeUser());
    },
    onRefreshFailed: (error) => {
      console.error('Token refresh failed; signing out', error);
      handOver(null);
      void userManager()
        .then((manager) => manager.removeUser())
        .then(() => signInRedirect());
    },
  });

  // A call that answers 401 although the session holds a token (it expired before its renewal ran:
  // a phone waking up, a busy device) renews the token and is sent once more; a second 401 stands.
  retryAfterRenewal(
    http,
    () => refresher.updateToken(-1),
    () => Boolean(current?.refresh_token),
  );

  return {
    async ensureSignedIn() {
      const stored = options.readStoredSession();
      if (!stored || (hasExpired(stored) && !stored.refresh_token)) {
        await signInRedirect();
        return 'redirecting';
      }
      if (/^dpop$/i.test(stored.token_type ?? '') && options.hasProofKey && !(await options.hasProofKey())) {
        // Tokens bound to a key that is gone are useless: a fresh sign-in makes a new key.
        await (await userManager()).removeUser();
        await signInRedirect();
        return 'redirecting';
      }
      handOver(stored);
      try {
        await refresher.updateToken(EXPIRY_MIN_VALIDITY_SECONDS);
      } catch (error) {
        // Refused: the refresher signed the user out and the browser is on its way to the sign-in.
        if (!isTransientRefreshFailure(error)) return 'redirecting';
        // No answer (offline): the session stays; the refresher tries again with back-off, and calls
        // made meanwhile fail with a clear error instead of a sign-in page that cannot load.
      }
      refresher.start();
      return 'signed-in';
    },

    async completeSignIn(url) {
      try {
        const user = await (await userManager()).signinCallback(url);
        if (!user) throw new Error('The sign-in callback returned no user');
        handOver(user);
        refresher.start();
        return safeReturnPath((user.state as { returnTo?: unknown } | undefined)?.returnTo);
      } catch (error) {
        if (isInvalidNonce(error)) {
          handOver(null);
          await (await userManager()).removeUser();
        }
        throw error;
      }
    },

    async signInAgain() {
      await signInRedirect({ max_age: 0 });
    },

    async refreshNow() {
      await refresher.updateToken(-1);
    },

    async signOut() {
      refresher.stop();
      const idToken = current?.id_token;
      handOver(null);
      await (
        await userManager()
      ).signoutRedirect({
        ...(idToken ? { id_token_hint: idToken } : {}),
        post_logout_redirect_uri: `${origin}/`,
      });
    },

    stop() {
      refresher.stop();
    },

    preload() {
      void userManager().catch((error: unknown) => {
        // A renewal will try again (and say so); nothing the customer needs to see now.
        console.warn('The sign-in client could not be loaded in the background', error);
        manager = undefined;
      });
    },
  };
}
