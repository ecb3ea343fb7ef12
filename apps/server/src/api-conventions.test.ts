import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import {
  apiPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type LoginStatus,
  type PersonalDataResponse,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { signIn } from './testing/sign-in.js';

let t: TestApp;
let accessToken: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' }));
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function csrfToken(token = accessToken): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: apiPaths.loginStatus, headers: bearer(token) });
  return res.headers[CSRF_HEADER.toLowerCase()] as string;
}

describe('login status', () => {
  it('returns the legal entity and session data of the signed-in customer', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: apiPaths.loginStatus,
      headers: bearer(accessToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<LoginStatus>();
    expect(body.legalEntityId).toBe(10);
    expect(body.user).toMatchObject({
      email: 'demo.de@example.com',
      firstName: 'Dora',
      lastName: 'Demo',
      language: 'de_DE',
      legalEntityId: 10,
      legalEntityIso: 'DE',
    });
    expect(body.user.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('bearer token', () => {
  it('is required: 401 with a JSON error, never a redirect', async () => {
    const res = await t.app.inject({ method: 'GET', url: apiPaths.loginStatus });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json<ApiErrorBody>()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it.each([
    ['garbage', 'Bearer not-a-token'],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a tampered signature', 'TAMPER'],
  ])('refuses %s', async (_what, header) => {
    const authorization = header === 'TAMPER' ? `Bearer ${accessToken.slice(0, -4)}AAAA` : header;
    const res = await t.app.inject({ method: 'GET', url: apiPaths.loginStatus, headers: { authorization } });
    expect(res.statusCode).toBe(401);
    expect(res.json<ApiErrorBody>().code).toBe('unauthorized');
  });

  it('refuses a well-formed token from another issuer', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const kid = (await exportJWK(publicKey)).kid ?? 'other';
    const forged = await new SignJWT({ legal_entity: 10, sid: 'x' })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer('https://evil.example.com/auth/realms/customer')
      .setAudience('urn:roadpass:customer-api')
      .setSubject('00000000-0000-4000-8000-000000000000')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const res = await t.app.inject({ method: 'GET', url: apiPaths.loginStatus, headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const short = await createTestApp({ accessTokenTtlSeconds: 5 }, t.db);
    try {
      const { accessToken: token } = await signIn(short.app, {
        email: 'demo.at@example.com',
        password: 'Demo-2026!',
      });
      expect((await short.app.inject({ url: apiPaths.loginStatus, headers: bearer(token) })).statusCode).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 6_000));
      const res = await short.app.inject({ url: apiPaths.loginStatus, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json<ApiErrorBody>().message).toMatch(/expired/);
    } finally {
      await short.app.close();
    }
  });
});

describe('anti-forgery token', () => {
  const update = (headers: Record<string, string>, payload: object = { language: 'en_DE' }) =>
    t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      headers: { ...bearer(accessToken), ...headers },
      payload,
    });

  it('comes with every GET of a signed-in customer', async () => {
    expect(await csrfToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is required on POST: 403 when missing, nothing changes', async () => {
    const res = await update({});
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>()).toMatchObject({
      code: 'csrf_invalid',
      violations: [{ field: CSRF_HEADER, rule: 'required' }],
    });
    const status = await t.app.inject({ url: apiPaths.loginStatus, headers: bearer(accessToken) });
    expect(status.json<LoginStatus>().user.language).toBe('de_DE');
  });

  it('is refused when wrong: 403', async () => {
    const res = await update({ [CSRF_HEADER]: 'x'.repeat(43) });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().violations?.[0]?.rule).toBe('match');
  });

  it('is refused, not a server error, when it has the right length in characters but not in bytes', async () => {
    const res = await update({ [CSRF_HEADER]: '\u00e9'.repeat(43) });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().violations?.[0]?.rule).toBe('match');
  });

  it('is refused when it belongs to another customer', async () => {
    const other = await signIn(t.app, { email: 'demo.fr@example.com', password: 'Demo-2026!' });
    const res = await update({ [CSRF_HEADER]: await csrfToken(other.accessToken) });
    expect(res.statusCode).toBe(403);
  });

  it('lets the change through when right', async () => {
    const res = await update({ [CSRF_HEADER]: await csrfToken() }, { language: 'en_DE' });
    expect(res.statusCode).toBe(200);
    expect(res.json<PersonalDataResponse>().body.PersonalDataRTO.language).toBe('en_DE');
    await update({ [CSRF_HEADER]: await csrfToken() }, { language: 'de_DE' });
  });
});

describe('malformed requests get a 4xx JSON error naming the field and rule, and change nothing', () => {
  const post = async (payload: string | object, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      headers: { ...bearer(accessToken), [CSRF_HEADER]: await csrfToken(), 'content-type': contentType },
      payload,
    });

  it.each([
    ['broken JSON', '{"language": ', 400, 'body', 'json'],
    ['an empty object', {}, 400, 'body', 'minProperties'],
    ['a wrong type', { language: 42 }, 400, 'language', 'type'],
    // Not the schema's pattern: the served rule it breaks, as the app names it.
    ['a wrong pattern', { language: 'german' }, 400, 'language', 'listMatch'],
    ['an unknown field', { language: 'en_DE', isAdmin: true }, 400, 'isAdmin', 'unknownField'],
    ['a language the country does not offer', { language: 'fr_DE' }, 400, 'language', 'listMatch'],
    ['an array', [1, 2], 400, 'body', 'type'],
  ])('%s', async (_what, payload, status, field, rule) => {
    const res = await post(payload as object);
    expect(res.statusCode).toBe(status);
    const body = res.json<ApiErrorBody>();
    expect(body.status).toBe(status);
    expect(body.violations).toContainEqual(expect.objectContaining({ field, rule }));
    const after = await t.app.inject({ url: apiPaths.loginStatus, headers: bearer(accessToken) });
    expect(after.json<LoginStatus>().user.language).toBe('de_DE');
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await post({ language: 'en_DE', padding: 'x'.repeat(200_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json<ApiErrorBody>().code).toBe('payload_too_large');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await post('language=en_DE', 'text/xml');
    expect(res.statusCode).toBe(415);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nothing/here', headers: bearer(accessToken) });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiErrorBody>().code).toBe('not_found');
  });
});

describe('security headers', () => {
  it.each(['/config.json', '/auth/realms/customer/.well-known/openid-configuration', '/nowhere'])(
    "are a page's on %s",
    async (url) => {
      const res = await t.app.inject({ url });
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    },
  );

  it.each([apiPaths.loginStatus, '/api/nowhere'])(
    "are an API's on %s, without the page headers",
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      for (const pageOnly of [
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-xss-protection',
      ]) {
        expect(res.headers[pageOnly]).toBeUndefined();
      }
    },
  );
});

describe('security headers on answered API calls', () => {
  it("are the API's on a 200 and on a refused write", async () => {
    const ok = await t.app.inject({ url: apiPaths.loginStatus, headers: bearer(accessToken) });
    const refused = await t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      headers: bearer(accessToken),
      payload: {},
    });
    expect([ok.statusCode, refused.statusCode]).toEqual([200, 403]);
    for (const res of [ok, refused]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });
});

describe('runtime configuration', () => {
  it('tells the app where the identity provider is, never cached', async () => {
    const res = await t.app.inject({ url: '/config.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      environment: 'test',
      identityProvider: { url: 'http://localhost:8080/auth', realm: 'customer', clientId: 'portal-client' },
    });
  });
});

describe('OpenAPI document', () => {
  it('documents the API from the contract schemas, without the sign-in pages', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([apiPaths.loginStatus, apiPaths.personalData, '/config.json']),
    );
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/auth/'))).toBe(false);
  });
});
