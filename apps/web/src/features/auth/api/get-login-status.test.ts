import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '@/lib/http';
import { isSignedIn, sessionUserOf } from '@/lib/session/session-user';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeFetch, jsonResponse } from '@/testing/fake-fetch';
import { demoLoginStatus } from '@/testing/fixtures';
import { UserLoadError, loadSessionUser } from './get-login-status';

const path = 'GET /api/customer/cuda/customer/v2/login/own/status';
const failure = (status: number) => jsonResponse({ status, code: 'x', message: 'x' }, { status });

describe('loadSessionUser', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => resetAppStore());

  it('loads the user into the session once', async () => {
    const server = createFakeFetch({ [path]: jsonResponse(demoLoginStatus) });
    const args = {
      http: createHttpClient({ fetch: server.fetch }),
      queryClient: new QueryClient(),
      refreshToken: vi.fn(),
    };

    await loadSessionUser(args);
    await loadSessionUser(args);

    expect(server.requests).toHaveLength(1);
    expect(sessionUserOf(args.queryClient)).toEqual(demoLoginStatus.user);
    expect(isSignedIn(sessionUserOf(args.queryClient))).toBe(true);
    // Pages that follow the app's country (the loyalty screens' locale) take the customer's.
    expect(useAppStore.getState().homeLocation).toBe('DE');
  });

  it.each([400, 401])('renews the token on %i and asks once more', async (status) => {
    const server = createFakeFetch({ [path]: [failure(status), jsonResponse(demoLoginStatus)] });
    const refreshToken = vi.fn(async () => {});

    await loadSessionUser({
      http: createHttpClient({ fetch: server.fetch }),
      queryClient: new QueryClient(),
      refreshToken,
    });

    expect(refreshToken).toHaveBeenCalledOnce();
    expect(server.requests).toHaveLength(2);
  });

  it.each([500, 503, 504, 404])('does not renew on %i; the user is cleared', async (status) => {
    const server = createFakeFetch({ [path]: failure(status) });
    const refreshToken = vi.fn(async () => {});
    const queryClient = new QueryClient();

    const error = await loadSessionUser({
      http: createHttpClient({ fetch: server.fetch }),
      queryClient,
      refreshToken,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UserLoadError);
    expect((error as Error).message).toBe("Couldn't load user information");
    expect(refreshToken).not.toHaveBeenCalled();
    expect(sessionUserOf(queryClient)).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });

  it('fails when the retry after renewal fails too', async () => {
    const server = createFakeFetch({ [path]: [failure(401), failure(401)] });
    const refreshToken = vi.fn(async () => {});

    await expect(
      loadSessionUser({
        http: createHttpClient({ fetch: server.fetch }),
        queryClient: new QueryClient(),
        refreshToken,
      }),
    ).rejects.toBeInstanceOf(UserLoadError);
    expect(refreshToken).toHaveBeenCalledOnce();
  });
});
