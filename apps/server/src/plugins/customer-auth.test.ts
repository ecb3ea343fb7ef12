import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';
import { VerifiedTokenCache } from './customer-auth.js';

// Issue 10, finding 4: signed-in API responses must not be cached, and a 401 says how to authenticate.
describe('bearer authentication of the API', () => {
  let t: TestApp;
  let accessToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' }));
  });
  afterAll(() => t?.close());

  it('answers a signed-in call with Cache-Control: no-store', async () => {
    const res = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // The second call is served from verified tokens and answers the same.
    const again = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(again.json()).toEqual(res.json());
  });

  it('challenges a call without a token (RFC 6750), not cached', async () => {
    const res = await t.app.inject({ url: apiPaths.loginStatus });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="roadpass"');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('names an invalid token in the challenge', async () => {
    const tampered = `${accessToken.slice(0, -4)}AAAA`;
    const res = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${tampered}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="roadpass", error="invalid_token", error_description="The access token is not valid for this service"',
    );
  });
});

describe('verified token cache', () => {
  it('forgets a token at its expiry', () => {
    let now = 1_000;
    const cache = new VerifiedTokenCache(10, () => now);
    cache.set('t', { sub: 'c', exp: 1_010 });
    expect(cache.get('t')).toEqual({ sub: 'c', exp: 1_010 });
    now = 1_010;
    expect(cache.get('t')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most its bound, dropping the oldest', () => {
    const cache = new VerifiedTokenCache(2, () => 0);
    cache.set('a', { exp: 9 });
    cache.set('b', { exp: 9 });
    cache.set('c', { exp: 9 });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });
});
