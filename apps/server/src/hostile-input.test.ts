import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, CSRF_HEADER } from '@roadpass/contracts';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { signIn } from './testing/sign-in.js';

let t: TestApp;
let auth: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const { accessToken } = await signIn(t.app, { email: 'demo.nl@example.com', password: 'Demo-2026!' });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  auth = {
    authorization: `Bearer ${accessToken}`,
    [CSRF_HEADER]: status.headers[CSRF_HEADER.toLowerCase()] as string,
  };
});
afterAll(() => t.close());

const unsignedToken = (payload: object) =>
  [{ alg: 'none', typ: 'JWT' }, payload]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.') + '.';

describe('hostile input never makes the server answer 5xx, and is refused with a JSON body', () => {
  const cases: [string, InjectOptions][] = [
    [
      'a broken percent-encoding',
      { url: '/api/core-web/content/contentCollection/%E0%A4%A/loyalty-program' },
    ],
    ['a NUL byte in the path', { url: '/api/core-web/content/contentCollection/de%00DE/loyalty-program' }],
    ['a very long path', { url: `/api/${'a'.repeat(8000)}` }],
    ['path traversal', { url: '/api/core-web/content/contentCollection/..%2F..%2Fetc/passwd' }],
    [
      'an alg=none token',
      { url: apiPaths.loginStatus, headers: { authorization: `Bearer ${unsignedToken({ sub: 'x' })}` } },
    ],
    [
      'a token of random bytes',
      { url: apiPaths.loginStatus, headers: { authorization: `Bearer ${'x'.repeat(5000)}.y.z` } },
    ],
    [
      'prototype pollution in the body',
      {
        method: 'POST',
        url: apiPaths.personalData,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"__proto__":{"admin":true},"language":"nl_NL"}',
      },
    ],
    [
      'deeply nested JSON',
      {
        method: 'POST',
        url: apiPaths.personalData,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: `${'['.repeat(5000)}${']'.repeat(5000)}`,
      },
    ],
    [
      'a form body on a JSON route',
      {
        method: 'POST',
        url: apiPaths.personalData,
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'language=nl_NL',
      },
    ],
    [
      'a JSON null body',
      {
        method: 'POST',
        url: apiPaths.personalData,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: 'null',
      },
    ],
    ['a wrong method', { method: 'DELETE', url: apiPaths.loginStatus, headers: auth }],
    [
      'a huge query string',
      { url: `${apiPaths.contentCollection('de-DE', 'loyalty-program')}?legalEntity=${'D'.repeat(10000)}` },
    ],
    [
      'a repeated query parameter',
      { url: `${apiPaths.contentCollection('de-DE', 'loyalty-program')}?legalEntity=DE&legalEntity=NL` },
    ],
    ['an unknown identity provider path', { url: '/auth/realms/customer/protocol/openid-connect/nothing' }],
    [
      'a token request with garbage',
      {
        method: 'POST',
        url: '/auth/realms/customer/protocol/openid-connect/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=%%%',
      },
    ],
    [
      'a login form post for an unknown interaction',
      {
        method: 'POST',
        url: '/auth/realms/customer/login-actions/does-not-exist',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a&password=b',
      },
    ],
  ];

  it.each(cases)('%s', async (_what, request) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    if (String(request.url).startsWith('/api')) expect(res.json()).toHaveProperty('code');
  });

  // Issue 10, finding 1: a form-encoded POST to personal data changed a customer's language.
  it('refuses a form-encoded body on a JSON route with 415, and changes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'language=en_NL',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      code: 'unsupported_media_type',
      violations: [{ field: 'body', rule: 'mediaType' }],
    });
    const status = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
    expect(status.json().user.language).toBe('nl_NL');
  });

  it('left the customer and every prototype untouched', async () => {
    const res = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
    expect(res.json().user.language).toBe('nl_NL');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
