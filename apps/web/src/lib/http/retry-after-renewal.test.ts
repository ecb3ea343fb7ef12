import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/fake-fetch';
import { createHttpClient, type HttpClient } from './http-client';
import { retryAfterRenewal } from './retry-after-renewal';

/**
 * An API that accepts only `accepted` as the bearer token; `hold(path)` keeps that path's next answer
 * until `release()` is called, so that a test can choose when a 401 arrives.
 */
function api(accepted: { token: string }) {
  const holding = new Set<string>();
  const releases = new Map<string, () => void>();
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'https://app.example.com').pathname;
    const token = new Headers(init?.headers).get('Authorization')?.replace(/^Bearer /, '');
    const answer = () =>
      token === accepted.token
        ? jsonResponse({ ok: path })
        : jsonResponse({ status: 401, code: 'unauthorized', message: 'refused' }, { status: 401 });
    if (!holding.delete(path)) return answer();
    return new Promise<Response>((resolve) => releases.set(path, () => resolve(answer())));
  });
  return {
    fetch,
    hold: (path: string) => void holding.add(path),
    release: (path: string) => releases.get(path)?.(),
    sent: () => fetch.mock.calls.length,
  };
}

describe('retryAfterRenewal', () => {
  let http: HttpClient;
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('renews once for calls refused together, and sends each once more with the new token', async () => {
    const accepted = { token: 'new' };
    const server = api(accepted);
    http = createHttpClient({ fetch: server.fetch });
    http.setToken('old');
    const renew = vi.fn(async () => http.setToken('new'));
    retryAfterRenewal(http, renew);

    await expect(Promise.all([http.get('/api/a'), http.get('/api/b')])).resolves.toEqual([
      { ok: '/api/a' },
      { ok: '/api/b' },
    ]);
    expect(renew).toHaveBeenCalledOnce();
    expect(server.sent()).toBe(4);
  });

  it('does not ask again for a call refused after the renewal failed, if it went out before', async () => {
    const server = api({ token: 'never' });
    http = createHttpClient({ fetch: server.fetch });
    http.setToken('old');
    const renew = vi.fn(() => Promise.reject(new Error('the host gave no token')));
    retryAfterRenewal(http, renew);

    server.hold('/api/late');
    const late = http.get('/api/late').catch((error: unknown) => error);
    await expect(http.get('/api/first')).rejects.toMatchObject({ status: 401 });
    // The renewal has failed; the call that went out before it is refused only now.
    server.release('/api/late');
    await expect(late).resolves.toMatchObject({ status: 401 });
    expect(renew).toHaveBeenCalledOnce();

    // A call that goes out after that renewal settled gets one of its own.
    await expect(http.get('/api/later')).rejects.toMatchObject({ status: 401 });
    expect(renew).toHaveBeenCalledTimes(2);
  });
});
