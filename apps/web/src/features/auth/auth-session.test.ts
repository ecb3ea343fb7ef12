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

function setup(stored: User | null) {
  const userManager = fakeUserManager(stored);
  const onTokenChange = vi.fn();
  const http = createHttpClient({ onTokenChange });
  const session = createAuthSession({
    userManager: userManager as unknown as UserManager,
    http,
    uiLocales: () => 'de',
    currentPath: () => '/DE/de/myaccount?x=1',
    origin: 'https://app.example.com',
  });
  return { userManager, http, onTokenChange, session };
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

  it('uses valid stored tokens and hands the token to the HTTP layer', async () => {
    const { session, userManager, http, onTokenChange } = setup(fakeUser());

    await expect(session.ensureSignedIn()).resolves.toBe('signed-in');

    expect(http.getToken()).toBe('at-1');
    expect(onTokenChange).toHaveBeenCalledWith('at-1');
    expect(userManager.signinSilent).not.toHaveBeenCalled();
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
    userManager.signinSilent.mockRejectedValueOnce(new Error('Network timed out'));

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
});
