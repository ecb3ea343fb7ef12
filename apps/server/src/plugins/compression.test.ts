import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signInWithSession, type InjectResponse } from '../testing/sign-in.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  encoding: string | undefined;
}

/**
 * The app as a browser sees it: every request says `Accept-Encoding: gzip, deflate, br`, and every
 * compressed answer is decoded before the sign-in helpers read it. Each exchange is noted.
 */
function browserOf(app: FastifyInstance): { app: FastifyInstance; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const inject = async (options: InjectOptions): Promise<InjectResponse> => {
    const res = await app.inject({
      ...options,
      headers: { 'accept-encoding': 'gzip, deflate, br', ...options.headers },
    });
    const encoding = res.headers['content-encoding'] as string | undefined;
    exchanges.push({
      method: options.method ?? 'GET',
      path: String(options.url).split('?')[0]!,
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      encoding,
    });
    if (!encoding) return res;
    const decoded = (
      encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload)
    ).toString();
    return { ...res, payload: decoded, body: decoded, json: () => JSON.parse(decoded) } as InjectResponse;
  };
  return { app: Object.create(app, { inject: { value: inject } }) as FastifyInstance, exchanges };
}

describe('compression and sign-in', () => {
  it('lets a browser that accepts compression sign in; the sign-in page comes compressed', async () => {
    const browser = browserOf(t.app);
    const { tokens } = await signInWithSession(browser.app, {
      email: 'demo.de@example.com',
      password: 'Demo-2026!',
    });
    expect(tokens.accessToken.split('.')).toHaveLength(3);

    const loginPages = browser.exchanges.filter(
      (e) => e.contentType.includes('text/html') && e.status === 200,
    );
    expect(loginPages.length).toBeGreaterThan(0);
    expect(loginPages.every((e) => e.encoding === 'br')).toBe(true);

    // The signed-in API answers through the same compression.
    const status = await browser.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toHaveProperty('user');
  });

  it('leaves the identity provider’s own answers as the provider wrote them (readable JSON)', async () => {
    const res = await t.app.inject({
      url: '/auth/realms/customer/.well-known/openid-configuration',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ issuer: expect.stringContaining('/auth/realms/customer') });
  });
});
