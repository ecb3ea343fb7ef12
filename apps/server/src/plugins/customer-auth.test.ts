import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    // Both schemes the API takes (RFC 9449 §7.1), Bearer first.
    expect(res.headers['www-authenticate']).toEqual([
      `Bearer realm="roadpass", resource_metadata="${t.config.publicUrl}/.well-known/oauth-protected-resource/api"`,
      'DPoP realm="roadpass", algs="ES256 EdDSA Ed25519"',
    ]);
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
      `Bearer realm="roadpass", error="invalid_token", error_description="The access token is not valid for this service", resource_metadata="${t.config.publicUrl}/.well-known/oauth-protected-resource/api"`,
    );
  });

  it('takes the scheme in any case (RFC 9110 §11.1)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await t.app.inject({
        url: apiPaths.loginStatus,
        headers: { authorization: `${scheme} ${accessToken}` },
      });
      expect(res.statusCode, scheme).toBe(200);
    }
  });

  it('answers invalid_token for a malformed token, the challenge alone for another scheme', async () => {
    const malformed = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.headers['www-authenticate']).toMatch(
      /^Bearer realm="roadpass", error="invalid_token", error_description="The access token is malformed"/,
    );
    const basic = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(401);
    expect(basic.headers['www-authenticate']).not.toContain('error=');
  });
});

describe('one keep-alive connection, several tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('answers each call for the token it carries, not the connection’s last one', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (authorization: string) =>
      new Promise<{ status: number; firstName?: string; reused: boolean }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: apiPaths.loginStatus, agent, headers: { authorization } },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                firstName: res.statusCode === 200 ? JSON.parse(body).user.firstName : undefined,
                reused: req.reusedSocket,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const dora = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' });
    const lukas = await signIn(t.app, { email: 'demo.at@example.com', password: 'Demo-2026!' });
    try {
      expect(await call(`Bearer ${dora.accessToken}`)).toMatchObject({ status: 200, firstName: 'Dora' });
      expect(await call(`Bearer ${dora.accessToken}`)).toMatchObject({ status: 200, reused: true });
      expect(await call(`Bearer ${lukas.accessToken}`)).toMatchObject({
        status: 200,
        firstName: 'Lukas',
        reused: true,
      });
      const tampered = `Bearer ${dora.accessToken.slice(0, -4)}AAAA`;
      expect(await call(tampered)).toMatchObject({ status: 401, reused: true });
      expect(await call(`Bearer ${dora.accessToken}`)).toMatchObject({ status: 200, firstName: 'Dora' });
    } finally {
      agent.destroy();
    }
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
