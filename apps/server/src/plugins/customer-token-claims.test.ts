import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac, createPrivateKey, sign, type JsonWebKey } from 'node:crypto';
import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';
import { loadSigningKeys, publicJwksOf } from '../idp/provider-keys.js';

// Every token below is signed with the realm's own private key (or forged from it), so its signature
// alone would pass: each must still be refused for its claims or its header, with the answer a caller
// can act on. (Checking these tokens with fast-jwt instead of jose was tried on 28 Nov and again on
// 30 Nov, and not kept: docs/performance.md#token-check-tried and #thread-waits.)
describe('customer access tokens signed by the realm’s key', () => {
  let t: TestApp;
  let valid: string;
  let claims: JWTPayload;
  let signingKey: JWK;
  let publicKey: JWK;
  beforeAll(async () => {
    t = await createTestApp();
    ({ accessToken: valid } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' }));
    claims = JSON.parse(Buffer.from(valid.split('.')[1]!, 'base64url').toString()) as JWTPayload;
    const jwks = await loadSigningKeys(t.db);
    signingKey = jwks.keys[0]!;
    publicKey = publicJwksOf(jwks).keys[0]!;
  });
  afterAll(() => t?.close());

  const call = (token: string) =>
    t.app.inject({ url: apiPaths.loginStatus, headers: { authorization: `Bearer ${token}` } });
  const signed = async (payload: JWTPayload) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid!, typ: 'at+jwt' })
      .sign(await importJWK(signingKey, 'RS256'));
  const refusal = async (token: string) => {
    const res = await call(token);
    return { status: res.statusCode, challenge: String(res.headers['www-authenticate']) };
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('takes the realm’s token, and one it signs again with the same claims', async () => {
    expect((await call(valid)).statusCode).toBe(200);
    expect((await call(await signed(claims))).statusCode).toBe(200);
  });

  it('answers an expired one as expired', async () => {
    expect(await refusal(await signed({ ...claims, iat: now() - 120, exp: now() - 60 }))).toEqual({
      status: 401,
      challenge: expect.stringContaining('error_description="The access token has expired"'),
    });
  });

  it.each([
    ['another issuer', () => ({ ...claims, iss: 'https://evil.example/auth/realms/customer' })],
    ['another audience', () => ({ ...claims, aud: 'urn:someone-else' })],
    ['no subject', () => ({ ...claims, sub: undefined })],
    ['no issued-at', () => ({ ...claims, iat: undefined })],
    ['no expiry', () => ({ ...claims, exp: undefined })],
    ['not valid before an hour from now', () => ({ ...claims, nbf: now() + 3600 })],
  ])('refuses one with %s as not valid for this service', async (_name, payload) => {
    expect(await refusal(await signed(payload()))).toEqual({
      status: 401,
      challenge: expect.stringContaining(
        'error_description="The access token is not valid for this service"',
      ),
    });
  });

  it('refuses one with a critical header it does not know', async () => {
    // Signed by hand: jose refuses to sign what it would not verify.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid: signingKey.kid, crit: ['exp-ext'], 'exp-ext': true })}.${part(claims)}`;
    const key = createPrivateKey({ key: signingKey as JsonWebKey, format: 'jwk' });
    const res = await refusal(`${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`);
    expect(res).toMatchObject({ status: 401, challenge: expect.stringContaining('error="invalid_token"') });
  });

  it('refuses a payload changed after signing, and a signature of another algorithm', async () => {
    const [header, , signature] = valid.split('.');
    const richer = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    expect((await refusal(`${header}.${richer}.${signature}`)).status).toBe(401);

    // The old confusion: HS256 keyed with the public key's text, under the realm's key id.
    const hsHeader = Buffer.from(
      JSON.stringify({ alg: 'HS256', kid: publicKey.kid, typ: 'at+jwt' }),
    ).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const mac = createHmac('sha256', JSON.stringify(publicKey))
      .update(`${hsHeader}.${body}`)
      .digest('base64url');
    expect((await refusal(`${hsHeader}.${body}.${mac}`)).status).toBe(401);

    // No signature at all.
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: publicKey.kid })).toString('base64url');
    expect((await refusal(`${none}.${body}.`)).status).toBe(401);
  });

  it('still takes the valid token after all of them', async () => {
    expect((await call(valid)).statusCode).toBe(200);
  });
});
