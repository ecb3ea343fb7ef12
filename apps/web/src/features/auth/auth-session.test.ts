import type { User, UserManager } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '@/lib/http';
import { createAuthSession } from './auth-session';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function fakeUser(overrides: Partial<User> = {}): User {
  const expiresAt = overrides.expires_at ?? nowSeconds() + 300;
  return {
    access_token: 'at-1',
    refresh_token: 'rt-1',
    id_token: 'id-1',
    expires_at: expiresAt,
    get expired() {
      return expiresAt <= nowSeconds();
    },
    state: undefined,
    ...overrides,
  } as unknown as User;
}

function fakeUserManager(stored: User | null) {
  return {
    getUser: vi.fn(async () => stored),
    signinRedirect: vi.fn(async () => {}),
    signinCallback: vi.fn(async () => fakeUser()),
    signinSilent: vi.fn(async () => fakeUser({ access_token: 'at-2', refresh_token: 'rt-2' })),
    removeUser: vi.fn(async () => {}),
    signoutRedirect: vi.fn(async () => {}),
  };
}

function setup(
  stored: User | null,
  fetch?: typeof globalThis.fetch,
  uiLocales: () => string | undefined = () => 'de',
  hasProofKey?: () => Promise<boolean>,
) {
  const userManager = fakeUserManager(stored);
  const onTokenChange = vi.fn();
  const http = createHttpClient({ onTokenChange, ...(fetch ? { fetch } : {}) });
  const loadUserManager = vi.fn(async () => userManager as unknown as UserManager);
  const session = createAuthSession({
    loadUserManager,
    readStoredSession: () => stored,
    http,
    uiLocales,
    currentPath: () => '/DE/de/myaccount?x=1',
    origin: 'https://app.example.com',
    ...(hasProofKey ? { hasProofKey, proofSigner: async () => 'proof' } : {}),
  });
  return { userManager, loadUserManager, http, onTokenChange, session };
}

/** A server that answers 401 to every token but `valid`. */
function apiAccepting(valid: string) {
  const tokens: (string | null)[] = [];
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '') ?? null;
    tokens.push(token);
    return token === valid
      ? new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } })
      : new Response(
          JSON.stringify({ status: 401, code: 'unauthorized', message: 'expired', violations: [] }),
          {
            status: 401,
            headers: { 'content-type': 'application/json' },
          },
        );
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, tokens };
}

describe('auth session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a visitor without stored tokens to the identity provider with ui_locales and the return address', async () => {
    const { session, userManager } = setup(null);

    await expect(session.ensureSignedIn()).resolves.toBe('redirecting');

    expect(userManager.signinRedirect).toHaveBeenCalledWith({
      ui_locales: 'de',
      state: { returnTo: '/DE/de/myaccount?x=1' },
    });
  });

  it('signs in again for a step-up with max_age=0, back to the same address', async () => {
    const { session, userManager } = setup(null);

    await session.signInAgain();

    expect(userManager.signinRedirect).toHaveBeenCalledWith({
      max_age: 0,
      ui_locales: 'de',
      state: { returnTo: '/DE/de/myaccount?x=1' },
    });
  });

  it('sends no ui_locales when nothing names a language: the identity provider chooses (issue 17)', async () => {
    const { session, userManager } = setup(null, undefined, () => undefined);

    await expect(session.ensureSignedIn()).resolves.toBe('redirecting');

    expect(userManager.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/DE/de/myaccount?x=1' } });
  });

  it('uses valid stored tokens and hands the token to the HTTP layer, without loading the OIDC client', async () => {
    const { session, userManager, loadUserManager, http, onTokenChange } = setup(fakeUser());

    await expect(session.ensureSignedIn()).resolves.toBe('signed-in');

    expect(http.getToken()).toBe('at-1');
    expect(onTokenChange).toHaveBeenCalledWith('at-1');
    expect(userManager.signinSilent).not.toHaveBeenCalled();
    // oidc-client-ts is a chunk of its own: a valid session shows the page without it.
    expect(loadUserManager).not.toHaveBeenCalled();
    session.preload();
    expect(loadUserManager).toHaveBeenCalledOnce();
    session.stop();
  });

  it('signs in afresh when the key of a DPoP-bound stored session is gone (site data cleared in part)', async () => {
    const { session, userManager, http } = setup(
      fakeUser({ token_type: 'DPoP' }),
      undefined,
      undefined,
      async () => false,
    );

    await expect(session.ensureSignedIn()).resolves.toBe('redirecting');

    expect(userManager.removeUser).toHaveBeenCalledOnce();
    expect(userManager.signinRedirect).toHaveBeenCalledOnce();
    expect(http.getToken()).toBeNull();
  });

  it('keeps a DPoP-bound stored session whose key is there', async () => {
    const { session, userManager, http } = setup(
      fakeUser({ token_type: 'DPoP' }),
      undefined,
      undefined,
      async () => true,
    );

    await expect(session.ensureSignedIn()).resolves.toBe('signed-in');

    expect(userManager.signinRedirect).not.toHaveBeenCalled();
    expect(http.getToken()).toBe('at-1');
    session.stop();
  });

  it('renews an expired stored token with the refresh token', async () => {
    const { session, userManager, http } = setup(fakeUser({ expires_at: nowSeconds() - 10 }));

    await expect(session.ensureSignedIn()).resolves.toBe('signed-in');

    expect(userManager.signinSilent).toHaveBeenCalledOnce();
    expect(http.getToken()).toBe('at-2');
    session.stop();
  });

  it('signs in again when an expired token has no refresh token', async () => {
    const { session, userManager } = setup(
      fakeUser({ expires_at: nowSeconds() - 10, refresh_token: undefined }),
    );

    await expect(session.ensureSignedIn()).resolves.toBe('redirecting');
    expect(userManager.signinRedirect).toHaveBeenCalledOnce();
  });

  it('signs the user out (clears and redirects to login) when renewal fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { session, userManager, http } = setup(fakeUser({ expires_at: nowSeconds() - 10 }));
    userManager.signinSilent.mockRejectedValueOnce(
      Object.assign(new Error('grant request is invalid'), { name: 'ErrorResponse', error: 'invalid_grant' }),
    );

    await expect(session.ensureSignedIn()).resolves.toBe('redirecting');
    await vi.waitFor(() => expect(userManager.signinRedirect).toHaveBeenCalledOnce());

    expect(userManager.removeUser).toHaveBeenCalled();
    expect(http.getToken()).toBeNull();
  });

  it('renews on the schedule once signed in', async () => {
    const { session, userManager, http } = setup(fakeUser({ expires_at: nowSeconds() + 60 }));
    await session.ensureSignedIn();

    await vi.advanceTimersByTimeAsync(60_000);

    expect(userManager.signinSilent).toHaveBeenCalledOnce();
    expect(http.getToken()).toBe('at-2');
    session.stop();
  });

  describe.each([
    ['10 minutes fast', 600],
    ['10 minutes slow', -600],
  ])('with the device clock %s', (_label, deviceAheadSeconds) => {
    /** A JWT whose exp is on the server's clock, and the User oidc-client-ts makes of the response. */
    function issuedNow(n: number): User {
      const serverNow = nowSeconds() - deviceAheadSeconds;
      const payload = btoa(JSON.stringify({ sub: 'c-1', iat: serverNow, exp: serverNow + 300 }))
        .replace(/=+$/, '')
        .replace(/\+/g, '-')
        .replace(/\//g, '_');
      return fakeUser({
        access_token: `eyJhbGciOiJSUzI1NiJ9.${payload}.sig-${n}`,
        refresh_token: `rt-${n}`,
        // expires_in (300) from the moment the response arrived, on the device's clock.
        expires_at: nowSeconds() + 300,
      });
    }

    it('renews about every 4 minutes, never in a loop', async () => {
      const { session, userManager } = setup(issuedNow(0));
      let issued = 0;
      userManager.signinSilent.mockImplementation(async () => issuedNow(++issued));

      await expect(session.ensureSignedIn()).resolves.toBe('signed-in');
      await vi.advanceTimersByTimeAsync(35_000);
      expect(userManager.signinSilent).not.toHaveBeenCalled();

      await vi.advanceTimersByTimeAsync(60 * 60_000 - 35_000);
      // The interval check every 250 s finds less than 70 s left on every second check at most.
      expect(userManager.signinSilent.mock.calls.length).toBeGreaterThanOrEqual(12);
      expect(userManager.signinSilent.mock.calls.length).toBeLessThanOrEqual(15);
      expect(userManager.signinRedirect).not.toHaveBeenCalled();
      session.stop();
    });
  });

  it('stays signed in when the first renewal gets no answer (offline), and renews once online', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { session, userManager, http } = setup(fakeUser({ expires_at: nowSeconds() - 10 }));
    userManager.signinSilent.mockRejectedValueOnce(new TypeError('Failed to fetch'));

    await expect(session.ensureSignedIn()).resolves.toBe('signed-in');
    expect(userManager.signinRedirect).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(10_000);
    expect(userManager.signinSilent).toHaveBeenCalledTimes(2);
    expect(http.getToken()).toBe('at-2');
    session.stop();
  });

  it('completes the sign-in and returns to the wanted address', async () => {
    const { session, userManager, http } = setup(null);
    userManager.signinCallback.mockResolvedValueOnce(fakeUser({ state: { returnTo: '/DE/de/myaccount' } }));

    await expect(
      session.completeSignIn('https://app.example.com/login/callback?code=1&state=2'),
    ).resolves.toBe('/DE/de/myaccount');
    expect(http.getToken()).toBe('at-1');
    session.stop();
  });

  it('returns to / when no (or an unsafe) return address was kept', async () => {
    const { session, userManager } = setup(null);
    userManager.signinCallback.mockResolvedValueOnce(
      fakeUser({ state: { returnTo: 'https://evil.example.com' } }),
    );

    await expect(session.completeSignIn('https://app.example.com/login/callback')).resolves.toBe('/');
    session.stop();
  });

  it('clears the token when the callback fails with an invalid nonce', async () => {
    const { session, userManager } = setup(null);
    userManager.signinCallback.mockRejectedValueOnce(
      new Error('nonce in id_token does not match nonce in client storage'),
    );

    await expect(session.completeSignIn('https://app.example.com/login/callback')).rejects.toThrow('nonce');
    expect(userManager.removeUser).toHaveBeenCalledOnce();
  });

  it('signs out with id_token_hint and the post-logout address', async () => {
    const { session, userManager, http } = setup(fakeUser());
    await session.ensureSignedIn();

    await session.signOut();

    expect(userManager.signoutRedirect).toHaveBeenCalledWith({
      id_token_hint: 'id-1',
      post_logout_redirect_uri: 'https://app.example.com/',
    });
    expect(http.getToken()).toBeNull();
  });

  it('renews the token when a call answers 401 and sends that call once more with the new token', async () => {
    const api = apiAccepting('at-2');
    const { session, userManager, http } = setup(fakeUser(), api.fetch);
    await session.ensureSignedIn();

    await expect(http.get('/api/customer/anything')).resolves.toEqual({ ok: true });
    expect(api.tokens).toEqual(['at-1', 'at-2']);
    expect(userManager.signinSilent).toHaveBeenCalledOnce();
  });

  it('lets a second 401 stand: one renewal, one more try, then the error', async () => {
    const api = apiAccepting('none');
    const { session, userManager, http } = setup(fakeUser(), api.fetch);
    await session.ensureSignedIn();

    await expect(http.get('/api/customer/anything')).rejects.toMatchObject({ status: 401 });
    expect(api.tokens).toEqual(['at-1', 'at-2']);
    expect(userManager.signinSilent).toHaveBeenCalledOnce();
  });
});
