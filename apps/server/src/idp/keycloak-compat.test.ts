import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { sql } from 'kysely';
import { serviceClientSecret } from '../modules/loyalty/index.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  browse,
  exchangeCode,
  followToCallback,
  openLoginPage,
  pathOf,
  providerEndpoints,
  refresh,
  signInWithSession,
} from '../testing/sign-in.js';

/** What a Keycloak client relies on (docs/keycloak-clients.md), checked through the server's own answers. */

const DEMO_DE = { email: 'demo.de@example.com', password: 'Demo-2026!' };
const REALM = '/auth/realms/customer';
const PROTOCOL = `${REALM}/protocol/openid-connect`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A full sign-in, returning the raw token response too. */
async function signInRaw(params?: Record<string, string>) {
  const { jar, loginUrl, verifier } = await openLoginPage(t.app, params ? { params } : {});
  const submitted = await browse(t.app, jar, loginUrl, DEMO_DE);
  const callback = await followToCallback(t.app, jar, submitted.headers.location as string);
  const res = await exchangeCode(t.app, callback.searchParams.get('code')!, verifier);
  expect(res.statusCode).toBe(200);
  return { jar, body: res.json<Record<string, unknown>>() };
}

const basicAuth = async () => {
  const secret = (await serviceClientSecret(t.db, t.config)) ?? '';
  return `Basic ${Buffer.from(`${t.config.loyaltyClientId}:${secret}`).toString('base64')}`;
};

describe('token responses in Keycloak’s shape', () => {
  it('carry a signed JWT refresh token, refresh_expires_in, session_state and not-before-policy', async () => {
    const { body } = await signInRaw();
    expect(body.token_type).toBe('Bearer');
    expect(body['not-before-policy']).toBe(0);
    const refreshToken = String(body.refresh_token);
    expect(decodeProtectedHeader(refreshToken)).toMatchObject({ alg: 'HS512', typ: 'JWT' });
    const parsed = decodeJwt(refreshToken);
    const access = decodeJwt(String(body.access_token));
    expect(parsed).toMatchObject({
      typ: 'Refresh',
      iss: t.app.identityProvider.issuer,
      aud: t.app.identityProvider.issuer,
      sub: access.sub,
      azp: 'portal-client',
      sid: access.sid,
      session_state: access.sid,
    });
    expect(body.session_state).toBe(access.sid);
    // The answer's seconds are counted when it is sent, the token's when it was made: a second apart at most.
    expect(Math.abs(Number(body.refresh_expires_in) - (parsed.exp! - parsed.iat!))).toBeLessThanOrEqual(1);
    expect(body.refresh_expires_in).toBeGreaterThan(t.config.refreshTokenTtlSeconds - 60);
  });

  it('rotate on refresh and revoke the grant when a rotated one comes back', async () => {
    const { body } = await signInRaw();
    const first = await refresh(t.app, String(body.refresh_token));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(decodeJwt(first.tokens.refreshToken).typ).toBe('Refresh');
    expect(first.tokens.refreshToken).not.toBe(body.refresh_token);
    const reused = await refresh(t.app, String(body.refresh_token));
    expect(reused).toMatchObject({ ok: false, status: 400, error: 'invalid_grant' });
    // Reuse revoked the whole grant: the newest refresh token is dead too.
    expect(await refresh(t.app, first.tokens.refreshToken)).toMatchObject({
      ok: false,
      error: 'invalid_grant',
    });
  });

  it('are taken only with their signature: a tampered one and the bare opaque value are refused', async () => {
    const { body } = await signInRaw();
    const refreshToken = String(body.refresh_token);
    const [header, payload] = refreshToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    expect(await refresh(t.app, forged)).toMatchObject({ ok: false, error: 'invalid_grant' });
    const opaque = String(decodeJwt(refreshToken).rt);
    expect(await refresh(t.app, opaque)).toMatchObject({ ok: false, error: 'invalid_grant' });
    // Neither touched the real one.
    expect((await refresh(t.app, refreshToken)).ok).toBe(true);
  });
});

describe('claims Keycloak clients read', () => {
  it('are in the access token and the ID token', async () => {
    const { body } = await signInRaw();
    const access = decodeJwt(String(body.access_token));
    expect(access).toMatchObject({
      typ: 'Bearer',
      azp: 'portal-client',
      acr: '1',
      session_state: access.sid,
      'allowed-origins': [new URL(t.config.publicUrl).origin],
      realm_access: { roles: [] },
      resource_access: {},
      preferred_username: DEMO_DE.email,
      email: DEMO_DE.email,
      email_verified: true,
      name: 'Dora Demo',
      given_name: 'Dora',
      family_name: 'Demo',
      locale: 'de-DE',
    });
    expect(typeof access.sid).toBe('string');
    const id = decodeJwt(String(body.id_token));
    expect(id).toMatchObject({
      typ: 'ID',
      azp: 'portal-client',
      acr: '1',
      sid: access.sid,
      session_state: access.sid,
      preferred_username: DEMO_DE.email,
      email: DEMO_DE.email,
      email_verified: true,
      name: 'Dora Demo',
      given_name: 'Dora',
      family_name: 'Demo',
      locale: 'de-DE',
    });
  });
});

describe('Keycloak’s default client scopes', () => {
  it('give the profile and e-mail claims to a client asking for openid alone (keycloak-js)', async () => {
    const { body } = await signInRaw({ scope: 'openid' });
    const access = decodeJwt(String(body.access_token));
    expect(String(access.scope).split(' ').sort()).toEqual(['email', 'openid', 'profile']);
    const expected = { preferred_username: DEMO_DE.email, email: DEMO_DE.email, name: 'Dora Demo' };
    expect(access).toMatchObject(expected);
    expect(decodeJwt(String(body.id_token))).toMatchObject(expected);
    const userinfo = await t.app.inject({
      url: `${PROTOCOL}/userinfo`,
      headers: { authorization: `Bearer ${String(body.access_token)}` },
    });
    expect(userinfo.json()).toMatchObject(expected);
  });
});

describe('userinfo and the account endpoint', () => {
  it('UserInfo answers the customer’s access token, GET and POST', async () => {
    const { body } = await signInRaw();
    const expected = {
      sub: decodeJwt(String(body.access_token)).sub,
      email: DEMO_DE.email,
      email_verified: true,
      preferred_username: DEMO_DE.email,
      name: 'Dora Demo',
      given_name: 'Dora',
      family_name: 'Demo',
      locale: 'de-DE',
    };
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: `${PROTOCOL}/userinfo`,
        headers: { authorization: `bearer ${String(body.access_token)}` },
      });
      expect(res.statusCode, method).toBe(200);
      expect(res.json()).toEqual(expected);
    }
    const bad = await t.app.inject({
      url: `${PROTOCOL}/userinfo`,
      headers: { authorization: 'Bearer a.b.c' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer realm="roadpass", error="invalid_token"/);
  });

  it('the account endpoint gives the profile to a bearer token and sends a browser to the app', async () => {
    const { body } = await signInRaw();
    const res = await t.app.inject({
      url: `${REALM}/account`,
      headers: { authorization: `Bearer ${String(body.access_token)}`, accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: decodeJwt(String(body.access_token)).sub,
      username: DEMO_DE.email,
      firstName: 'Dora',
      lastName: 'Demo',
      email: DEMO_DE.email,
      emailVerified: true,
      attributes: { locale: ['de-DE'] },
    });
    const browser = await t.app.inject({ url: `${REALM}/account?referrer=portal-client` });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe(`${t.config.publicUrl}/`);
    const none = await t.app.inject({ url: `${REALM}/account`, headers: { authorization: 'Bearer x' } });
    expect(none.statusCode).toBe(401);
  });
});

describe('metadata', () => {
  it('RFC 8414 at the path-inserted address and at the realm, the same as OIDC discovery', async () => {
    const oidc = (await t.app.inject({ url: `${REALM}/.well-known/openid-configuration` })).json<
      Record<string, unknown>
    >();
    expect(oidc.introspection_endpoint).toBe(
      `${t.app.identityProvider.issuer}/protocol/openid-connect/token/introspect`,
    );
    for (const url of [
      `/.well-known/oauth-authorization-server${REALM}`,
      `${REALM}/.well-known/oauth-authorization-server`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual(oidc);
    }
  });

  it('RFC 9728 protected-resource metadata names the realm, and the realm issues tokens for that resource', async () => {
    const res = await t.app.inject({ url: '/.well-known/oauth-protected-resource/api' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      resource: `${t.config.publicUrl}/api`,
      authorization_servers: [t.app.identityProvider.issuer],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('introspection (RFC 7662)', () => {
  it('tells a confidential client about a refresh token and refuses the public client', async () => {
    const { body } = await signInRaw();
    const introspect = (authorization: string | undefined, extra: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `${PROTOCOL}/token/introspect`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(authorization ? { authorization } : {}),
        },
        payload: new URLSearchParams({ token: String(body.refresh_token), ...extra }).toString(),
      });
    const res = await introspect(await basicAuth());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      active: true,
      client_id: 'portal-client',
      sub: decodeJwt(String(body.access_token)).sub,
      scope: expect.stringContaining('openid'),
    });
    const publicClient = await introspect(undefined, { client_id: 'portal-client' });
    expect(publicClient.json()).toMatchObject({ active: false });
  });
});

describe('introspection of access tokens (RFC 7662)', () => {
  const introspect = async (token: string, authorization?: string) =>
    t.app.inject({
      method: 'POST',
      url: `${PROTOCOL}/token/introspect`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization ? { authorization } : {}),
      },
      payload: new URLSearchParams({
        token,
        token_type_hint: 'access_token',
        ...(authorization ? {} : { client_id: 'portal-client' }),
      }).toString(),
    });

  it('says active for a live access token, inactive once its session ended, nothing to a public client', async () => {
    const { jar, tokens } = await signInWithSession(t.app, DEMO_DE);
    const access = decodeJwt(tokens.accessToken);
    const live = await introspect(tokens.accessToken, await basicAuth());
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({
      active: true,
      token_type: 'Bearer',
      sub: access.sub,
      client_id: 'portal-client',
      sid: access.sid,
      exp: access.exp,
      iss: t.app.identityProvider.issuer,
      scope: expect.stringContaining('openid'),
      username: DEMO_DE.email,
    });
    expect((await introspect(tokens.accessToken)).json()).toEqual({ active: false });
    // Revocation (RFC 7009) takes refresh tokens; an access token is refused as a type it does not revoke.
    const revoke = await t.app.inject({
      method: 'POST',
      url: `${PROTOCOL}/revoke`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: tokens.accessToken, client_id: 'portal-client' }).toString(),
    });
    expect(revoke.statusCode).toBe(400);
    expect(revoke.json()).toMatchObject({ error: 'unsupported_token_type' });
    const wrongSecret = await introspect(
      tokens.accessToken,
      `Basic ${Buffer.from(`${t.config.loyaltyClientId}:wrong`).toString('base64')}`,
    );
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json()).not.toHaveProperty('active');

    // The customer signs out: the access token is dead before its exp.
    const query = new URLSearchParams({
      client_id: 'portal-client',
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
      id_token_hint: tokens.idToken,
    });
    expect((await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`)).statusCode).toBe(303);
    expect((await introspect(tokens.accessToken, await basicAuth())).json()).toEqual({ active: false });
  });

  it('says inactive, and UserInfo refuses, as soon as the session ended on another instance', async () => {
    const { tokens } = await signInWithSession(t.app, DEMO_DE);
    const access = decodeJwt(tokens.accessToken);
    expect((await introspect(tokens.accessToken, await basicAuth())).json()).toMatchObject({ active: true });
    // Another instance ended the session a moment ago: its row is in the database, its notice has not
    // reached this instance yet (the trigger that sends it does not fire in replica mode).
    await t.db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await tx
        .insertInto('ended_sessions')
        .values({
          sid: String(access.sid),
          customer_id: String(access.sub),
          reason: 'signed_out',
          expires_at: new Date(Date.now() + 3_600_000),
        })
        .execute();
    });
    expect((await introspect(tokens.accessToken, await basicAuth())).json()).toEqual({ active: false });
    const userinfo = await t.app.inject({
      url: `${PROTOCOL}/userinfo`,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.headers['www-authenticate']).toMatch(/error="invalid_token"/);
  });

  it('says inactive for a JWT with a forged signature', async () => {
    const { body } = await signInRaw();
    const [header, payload] = String(body.access_token).split('.');
    const forged = `${header}.${payload}.${'A'.repeat(342)}`;
    expect((await introspect(forged, await basicAuth())).json()).toEqual({ active: false });
  });
});

describe('the session-status iframe and logout', () => {
  it('sets KEYCLOAK_SESSION to realm/subject/sid at sign-in, serves the iframe, clears it at logout to any app page', async () => {
    const { jar, tokens } = await signInWithSession(t.app, DEMO_DE);
    const access = decodeJwt(tokens.accessToken);
    const cookie = jar.headerFor(`${t.config.publicUrl}${PROTOCOL}/login-status-iframe.html`) ?? '';
    expect(cookie).toContain(`KEYCLOAK_SESSION=customer/${access.sub}/${access.sid}`);

    const iframe = await t.app.inject({ url: `${PROTOCOL}/login-status-iframe.html` });
    expect(iframe.statusCode).toBe(200);
    expect(iframe.body).toContain('login-status-iframe.js');
    const origin = new URL(t.config.publicUrl).origin;
    const init = await t.app.inject({
      url: `${PROTOCOL}/login-status-iframe.html/init?client_id=portal-client&origin=${encodeURIComponent(origin)}`,
    });
    expect(init.statusCode).toBe(204);
    const stranger = await t.app.inject({
      url: `${PROTOCOL}/login-status-iframe.html/init?client_id=portal-client&origin=https%3A%2F%2Fevil.example`,
    });
    expect(stranger.statusCode).toBe(403);
    for (const step of ['step1', 'step2']) {
      expect((await t.app.inject({ url: `${PROTOCOL}/3p-cookies/${step}.html` })).statusCode).toBe(200);
    }

    // keycloak-js's default logout: back to the page it came from.
    const page = `${t.config.publicUrl}/DE/de/myaccount/profile`;
    const query = new URLSearchParams({
      client_id: 'portal-client',
      post_logout_redirect_uri: page,
      id_token_hint: tokens.idToken,
    });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(page);
    expect(String(res.headers['set-cookie'])).toMatch(/KEYCLOAK_SESSION=;/);
    expect(await refresh(t.app, tokens.refreshToken)).toMatchObject({ ok: false, error: 'invalid_grant' });
  });

  it('refuses a post-logout or sign-in redirect to the API, the realm or another origin', async () => {
    for (const target of [
      `${t.config.publicUrl}/api/x`,
      `${t.config.publicUrl}${REALM}/account`,
      'https://evil.example/',
    ]) {
      const query = new URLSearchParams({ client_id: 'portal-client', post_logout_redirect_uri: target });
      const res = await t.app.inject({ url: `${pathOf(providerEndpoints(t.app).logout)}?${query}` });
      expect(res.statusCode, target).toBe(400);
      const auth = new URLSearchParams({
        client_id: 'portal-client',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: target,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      const authorization = await t.app.inject({ url: `${PROTOCOL}/auth?${auth}` });
      expect(authorization.statusCode, target).toBe(400);
    }
  });
});
