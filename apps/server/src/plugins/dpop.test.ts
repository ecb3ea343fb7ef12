import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { serviceClientSecret } from '../modules/loyalty/index.js';
import {
  browse,
  followToCallback,
  openLoginPage,
  pathOf,
  providerEndpoints,
  type InjectResponse,
} from '../testing/sign-in.js';
import type { FastifyInstance } from 'fastify';

// Issue 20 §3: DPoP (RFC 9449) at the realm's token endpoint and at the customer API (decision 0044).

const DEMO = { email: 'demo.de@example.com', password: 'Demo-2026!' };

interface ProofKey {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
  jkt: string;
}

async function newKey(): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

async function proof(
  key: ProofKey,
  htm: string,
  htu: string,
  extra: { accessToken?: string; nonce?: string; iat?: number; typ?: string; jti?: string } = {},
): Promise<string> {
  return new SignJWT({
    htm,
    htu,
    jti: extra.jti ?? randomUUID(),
    iat: extra.iat ?? Math.floor(Date.now() / 1000),
    ...(extra.accessToken ? { ath: ath(extra.accessToken) } : {}),
    ...(extra.nonce ? { nonce: extra.nonce } : {}),
  })
    .setProtectedHeader({ alg: 'ES256', typ: extra.typ ?? 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

/** Signs in through the form and exchanges the code with a DPoP proof of `key` (none without). */
async function signInWithDpop(app: FastifyInstance, key: ProofKey | undefined, nonce?: string) {
  const { jar, loginUrl, verifier, state } = await openLoginPage(app);
  const submitted = await browse(app, jar, loginUrl, DEMO);
  const callback = await followToCallback(app, jar, submitted.headers.location as string);
  expect(callback.searchParams.get('state')).toBe(state);
  const endpoints = providerEndpoints(app);
  return app.inject({
    method: 'POST',
    url: pathOf(endpoints.token),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(key ? { dpop: await proof(key, 'POST', endpoints.token, nonce ? { nonce } : {}) } : {}),
    },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: endpoints.redirectUri,
      client_id: 'portal-client',
      code_verifier: verifier,
    }).toString(),
  });
}

async function refreshWith(
  app: FastifyInstance,
  refreshToken: string,
  dpop?: string,
): Promise<InjectResponse> {
  return app.inject({
    method: 'POST',
    url: pathOf(providerEndpoints(app).token),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'portal-client',
    }).toString(),
  });
}

describe('DPoP at the realm and the API', () => {
  let t: TestApp;
  let key: ProofKey;
  let accessToken: string;
  let refreshToken: string;
  let statusUrl: string;

  const call = async (headers: Record<string, string>, url: string = apiPaths.loginStatus, app = t.app) =>
    app.inject({ url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    key = await newKey();
    statusUrl = `${t.config.publicUrl}${apiPaths.loginStatus}`;
    const res = await signInWithDpop(t.app, key);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ token_type: string; access_token: string; refresh_token: string }>();
    expect(body.token_type).toBe('DPoP');
    ({ access_token: accessToken, refresh_token: refreshToken } = body);
  });
  afterAll(() => t?.close());

  it('binds the access token to the proof key (cnf.jkt) and advertises DPoP in discovery', async () => {
    expect(decodeJwt(accessToken).cnf).toEqual({ jkt: key.jkt });
    const discovery = await t.app.inject({
      url: `${pathOf(t.app.identityProvider.issuer)}/.well-known/openid-configuration`,
    });
    expect(
      discovery.json<{ dpop_signing_alg_values_supported: string[] }>().dpop_signing_alg_values_supported,
    ).toContain('ES256');
  });

  it('answers a DPoP call with a fresh proof, and refuses the same proof again', async () => {
    const dpop = await proof(key, 'GET', statusUrl, { accessToken });
    const first = await call({ authorization: `DPoP ${accessToken}`, dpop });
    expect(first.statusCode, first.body).toBe(200);
    const again = await call({ authorization: `DPoP ${accessToken}`, dpop });
    expect(again.statusCode).toBe(401);
    expect(again.headers['www-authenticate']).toMatch(
      /^DPoP realm="roadpass", error="invalid_dpop_proof", error_description="The DPoP proof has been used before", algs="ES256 EdDSA Ed25519"$/,
    );
    // A second fresh proof passes again (the scheme in any case); htu ignores the query.
    const withQuery = await call(
      {
        authorization: `dpop ${accessToken}`,
        dpop: await proof(key, 'GET', `${statusUrl}?x=1`, { accessToken }),
      },
      `${apiPaths.loginStatus}?y=2`,
    );
    expect(withQuery.statusCode, withQuery.body).toBe(200);
  });

  it('refuses the bound token as a bearer token, and without a proof', async () => {
    const bearer = await call({ authorization: `Bearer ${accessToken}` });
    expect(bearer.statusCode).toBe(401);
    expect(bearer.headers['www-authenticate']).toMatch(/^DPoP realm="roadpass", error="invalid_token"/);
    const noProof = await call({ authorization: `DPoP ${accessToken}` });
    expect(noProof.statusCode).toBe(401);
    expect(noProof.headers['www-authenticate']).toMatch(/error="invalid_dpop_proof"/);
  });

  it('refuses a proof with the wrong htm, htu, ath, typ or key', async () => {
    const other = await newKey();
    const cases: [string, string][] = [
      ['htm', await proof(key, 'POST', statusUrl, { accessToken })],
      ['htu', await proof(key, 'GET', `${t.config.publicUrl}/api/other`, { accessToken })],
      ['htu', await proof(key, 'GET', `https://elsewhere.example${apiPaths.loginStatus}`, { accessToken })],
      ['ath', await proof(key, 'GET', statusUrl, { accessToken: `${accessToken}x` })],
      ['ath', await proof(key, 'GET', statusUrl)],
      ['typ', await proof(key, 'GET', statusUrl, { accessToken, typ: 'JWT' })],
      ['key', await proof(other, 'GET', statusUrl, { accessToken })],
    ];
    for (const [what, dpop] of cases) {
      const res = await call({ authorization: `DPoP ${accessToken}`, dpop });
      expect(res.statusCode, what).toBe(401);
      expect(res.headers['www-authenticate'], what).toMatch(/error="invalid_dpop_proof"/);
      expect(res.json(), what).toMatchObject({ status: 401 });
    }
  });

  it('takes a proof sent several times at once only once', async () => {
    const dpop = await proof(key, 'GET', statusUrl, { accessToken });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call({ authorization: `DPoP ${accessToken}`, dpop })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it('refuses a proof whose signature is not of the header key, or whose header holds a private key', async () => {
    const signed = await proof(key, 'GET', statusUrl, { accessToken });
    const [header, payload] = signed.split('.');
    // The known key's header (its import is remembered) with another key's signature.
    const other = await newKey();
    const forged = `${header}.${payload}.${(await proof(other, 'GET', statusUrl, { accessToken })).split('.')[2]}`;
    // The private key in the header, and no signature algorithm at all.
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const withPrivate = await new SignJWT({
      htm: 'GET',
      htu: statusUrl,
      jti: randomUUID(),
      iat: Math.floor(Date.now() / 1000),
      ath: ath(accessToken),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk })
      .sign(privateKey);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })).toString('base64url')}.${payload}.`;
    for (const [what, dpop] of [
      ['forged', forged],
      ['private', withPrivate],
      ['none', unsigned],
    ] as const) {
      const res = await call({ authorization: `DPoP ${accessToken}`, dpop });
      expect(res.statusCode, what).toBe(401);
      expect(res.headers['www-authenticate'], what).toMatch(/error="invalid_dpop_proof"/);
    }
  });

  it('introspects the bound token as DPoP with its key, for a confidential client', async () => {
    const secret = (await serviceClientSecret(t.db, t.config)) ?? '';
    const res = await t.app.inject({
      method: 'POST',
      url: pathOf(`${t.app.identityProvider.issuer}/protocol/openid-connect/token/introspect`),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${t.config.loyaltyClientId}:${secret}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ token: accessToken, token_type_hint: 'access_token' }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      active: true,
      token_type: 'DPoP',
      cnf: { jkt: key.jkt },
      sub: decodeJwt(accessToken).sub,
    });
  });

  it('offers both schemes to a call without credentials, and UserInfo challenges a DPoP call as DPoP', async () => {
    const bare = await call({});
    expect(bare.statusCode).toBe(401);
    expect(bare.headers['www-authenticate']).toEqual([
      `Bearer realm="roadpass", resource_metadata="${t.config.publicUrl}/.well-known/oauth-protected-resource/api"`,
      'DPoP realm="roadpass", algs="ES256 EdDSA Ed25519"',
    ]);
    const userinfo = `${t.app.identityProvider.issuer}/protocol/openid-connect/userinfo`;
    const withoutProof = await call({ authorization: `DPoP ${accessToken}` }, pathOf(userinfo));
    expect(withoutProof.statusCode).toBe(401);
    expect(withoutProof.headers['www-authenticate']).toMatch(
      /^DPoP realm="roadpass", error="invalid_dpop_proof"/,
    );
    const withProof = await call(
      { authorization: `DPoP ${accessToken}`, dpop: await proof(key, 'GET', userinfo, { accessToken }) },
      pathOf(userinfo),
    );
    expect(withProof.statusCode, withProof.body).toBe(200);
    // A browser script of the app's origin may send its proof to UserInfo and read the answer's challenge.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: pathOf(userinfo),
      headers: {
        origin: new URL(t.config.publicUrl).origin,
        'access-control-request-headers': 'authorization,dpop',
      },
    });
    expect(preflight.headers['access-control-allow-headers']).toMatch(/\bDPoP\b/);
    const metadata = await t.app.inject({ url: '/.well-known/oauth-protected-resource/api' });
    expect(metadata.json()).toMatchObject({
      dpop_signing_alg_values_supported: ['ES256', 'EdDSA', 'Ed25519'],
    });
  });

  it('asks for a nonce when the proof is not recent, and takes the proof with it', async () => {
    const old = await proof(key, 'GET', statusUrl, {
      accessToken,
      iat: Math.floor(Date.now() / 1000) - 3600,
    });
    const res = await call({ authorization: `DPoP ${accessToken}`, dpop: old });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^DPoP realm="roadpass", error="use_dpop_nonce"/);
    const nonce = res.headers['dpop-nonce'] as string;
    expect(nonce).toMatch(/^[\w-]{43}$/);
    const withNonce = await proof(key, 'GET', statusUrl, {
      accessToken,
      nonce,
      iat: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await call({ authorization: `DPoP ${accessToken}`, dpop: withNonce })).statusCode).toBe(200);
    const forged = await proof(key, 'GET', statusUrl, { accessToken, nonce: 'A'.repeat(43) });
    const refused = await call({ authorization: `DPoP ${accessToken}`, dpop: forged });
    expect(refused.headers['www-authenticate']).toMatch(/error="use_dpop_nonce"/);
  });

  it('binds the refresh token: refreshed only with a proof of the same key', async () => {
    const tokenUrl = providerEndpoints(t.app).token;
    const without = await refreshWith(t.app, refreshToken);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ error: 'invalid_grant' });
    const other = await newKey();
    const wrongKey = await refreshWith(t.app, refreshToken, await proof(other, 'POST', tokenUrl));
    expect(wrongKey.statusCode).toBe(400);
    const right = await refreshWith(t.app, refreshToken, await proof(key, 'POST', tokenUrl));
    expect(right.statusCode, right.body).toBe(200);
    const renewed = right.json<{ token_type: string; access_token: string }>();
    expect(renewed.token_type).toBe('DPoP');
    expect(decodeJwt(renewed.access_token).cnf).toEqual({ jkt: key.jkt });
  });

  it('keeps bearer tokens for a client that sends no proof', async () => {
    const res = await signInWithDpop(t.app, undefined);
    const body = res.json<{ token_type: string; access_token: string }>();
    expect(body.token_type).toBe('Bearer');
    expect(decodeJwt(body.access_token).cnf).toBeUndefined();
    expect((await call({ authorization: `Bearer ${body.access_token}` })).statusCode).toBe(200);
    // A bearer token under the DPoP scheme is not a bound one.
    const asDpop = await call({
      authorization: `DPoP ${body.access_token}`,
      dpop: await proof(key, 'GET', statusUrl, { accessToken: body.access_token }),
    });
    expect(asDpop.statusCode).toBe(401);
  });

  it('refuses a proof replayed to a second instance on the same database', async () => {
    const second = await createTestApp({}, t.db);
    try {
      const dpop = await proof(key, 'GET', statusUrl, { accessToken });
      expect((await call({ authorization: `DPoP ${accessToken}`, dpop })).statusCode).toBe(200);
      const replayed = await call(
        { authorization: `DPoP ${accessToken}`, dpop },
        apiPaths.loginStatus,
        second.app,
      );
      expect(replayed.statusCode).toBe(401);
      expect(replayed.headers['www-authenticate']).toMatch(/used before/);
      // The other instance takes fresh proofs of the same token.
      const fresh = await proof(key, 'GET', statusUrl, { accessToken });
      expect(
        (await call({ authorization: `DPoP ${accessToken}`, dpop: fresh }, apiPaths.loginStatus, second.app))
          .statusCode,
      ).toBe(200);
    } finally {
      await second.app.close();
    }
  });
});

describe('DPoP with DPOP_REQUIRE_NONCE', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dpopRequireNonce: true });
  });
  afterAll(() => t?.close());

  it('the token endpoint and the API ask for the server nonce, then accept proofs with it', async () => {
    const key = await newKey();
    const first = await signInWithDpop(t.app, key);
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const realmNonce = first.headers['dpop-nonce'] as string;
    expect(realmNonce).toBeTruthy();
    const res = await signInWithDpop(t.app, key, realmNonce);
    expect(res.statusCode, res.body).toBe(200);
    const { access_token: accessToken } = res.json<{ access_token: string }>();

    const statusUrl = `${t.config.publicUrl}${apiPaths.loginStatus}`;
    const withoutNonce = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: {
        authorization: `DPoP ${accessToken}`,
        dpop: await proof(key, 'GET', statusUrl, { accessToken }),
      },
    });
    expect(withoutNonce.statusCode).toBe(401);
    expect(withoutNonce.headers['www-authenticate']).toMatch(/error="use_dpop_nonce"/);
    const nonce = withoutNonce.headers['dpop-nonce'] as string;
    const ok = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: {
        authorization: `DPoP ${accessToken}`,
        dpop: await proof(key, 'GET', statusUrl, { accessToken, nonce }),
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('DPoP with DPOP_REQUIRED', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dpopRequired: true });
  });
  afterAll(() => t?.close());

  it("refuses the app client's code exchange without a proof, and binds it with one", async () => {
    const without = await signInWithDpop(t.app, undefined);
    expect(without.statusCode).toBe(400);
    // oidc-provider says why only in its log ("DPoP proof JWT not provided"); the same exchange
    // without the setting gets bearer tokens (the first suite).
    expect(without.json()).toMatchObject({ error: 'invalid_grant' });
    const key = await newKey();
    const bound = await signInWithDpop(t.app, key);
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json()).toMatchObject({ token_type: 'DPoP' });
  });
});

describe('DPoP replay ids in Redis (REDIS_URL)', () => {
  let t: TestApp;
  let second: TestApp;
  const prefix = `test-dpop-${randomUUID()}:`;
  beforeAll(async () => {
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: prefix });
    second = await createTestApp({ redisUrl: 'redis://127.0.0.1:6379', redisKeyPrefix: prefix }, t.db);
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.close();
  });

  it('a proof taken by one instance is refused by the other, and nothing goes to the database', async () => {
    const key = await newKey();
    const res = await signInWithDpop(t.app, key);
    const { access_token: accessToken } = res.json<{ access_token: string }>();
    const statusUrl = `${t.config.publicUrl}${apiPaths.loginStatus}`;
    const before = await t.db
      .selectFrom('dpop_proofs')
      .select(t.db.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const dpop = await proof(key, 'GET', statusUrl, { accessToken });
    const headers = { authorization: `DPoP ${accessToken}`, dpop };
    expect((await t.app.inject({ url: apiPaths.loginStatus, headers })).statusCode).toBe(200);
    const replayed = await second.app.inject({ url: apiPaths.loginStatus, headers });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.headers['www-authenticate']).toMatch(/used before/);
    const after = await t.db
      .selectFrom('dpop_proofs')
      .select(t.db.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
