import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { apiPaths } from '@roadpass/contracts';
import { createTestDatabase, testDbTarget, type TestDatabase } from './testing/test-database.js';
import { signInThroughForm } from './testing/form-sign-in.js';
import { freePort, SERVICE_SECRET, startServer, type ServerProcess } from './testing/server-process.js';

// The realm with real OAuth/OIDC client libraries (docs/keycloak-clients.md): oauth4webapi and
// openid-client, as installed from the registry, against the built server. On PostgreSQL two server
// processes share one database behind a round-robin proxy, so every step may land on either; on
// embedded PGlite (one process per folder) one instance sits behind the same proxy.

// Each test walks a whole flow over HTTP against real processes.
vi.setConfig({ testTimeout: 120_000 });

const DEMO = { email: 'demo.de@example.com', password: 'Demo-2026!' };
const REALM = '/auth/realms/customer';
const CLIENT_ID = 'portal-client';

let proxy: Server;
let origin: string;
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
/** How many requests each instance got, to see that both served. */
const served: number[] = [];

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  let env: Record<string, string>;
  if (testDbTarget() === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-kc-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    env = { DATA_DIR: dataDir, DATABASE_URL: '', PUBLIC_URL: origin };
  } else {
    const database: TestDatabase = await createTestDatabase();
    await database.db.destroy();
    cleanups.push(() => database.drop());
    env = { DATABASE_URL: database.url!, DATABASE_POOL_SIZE: '5', PUBLIC_URL: origin };
  }
  const count = testDbTarget() === 'pglite' ? 1 : 2;
  servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(env)))));
  let next = 0;
  proxy = createServer((req, res) => {
    const index = next++ % servers.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(servers[index]!.origin);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
}, 330_000);

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await Promise.all(servers.map((s) => s.stop()));
  for (const cleanup of cleanups) await cleanup();
});

describe('oauth4webapi', () => {
  const insecure = { [oauth.allowInsecureRequests]: true };
  const portal: oauth.Client = { client_id: CLIENT_ID };
  const rental: oauth.Client = { client_id: 'rental-system' };

  it('discovers the realm by RFC 8414 and from the API (RFC 9728)', async () => {
    const issuer = new URL(`${origin}${REALM}`);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    expect(as.introspection_endpoint).toBe(`${issuer.href}/protocol/openid-connect/token/introspect`);
    const resource = new URL(`${origin}/api`);
    const metadata = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure),
    );
    expect(metadata.authorization_servers).toEqual([issuer.href]);
  });

  it('signs in with code + PKCE, reads UserInfo, introspects, refreshes, revokes', async () => {
    const issuer = new URL(`${origin}${REALM}`);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }),
    );
    const redirectUri = `${origin}/login/callback`;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }).toString();
    const callback = await signInThroughForm(origin, url, redirectUri, DEMO);
    const params = oauth.validateAuthResponse(as, portal, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      portal,
      await oauth.authorizationCodeGrantRequest(
        as,
        portal,
        oauth.None(),
        params,
        redirectUri,
        verifier,
        insecure,
      ),
      { expectedNonce: nonce, requireIdToken: true },
    );
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ email: DEMO.email, typ: 'ID', azp: CLIENT_ID });
    expect(tokens.token_type).toBe('bearer'); // oauth4webapi lower-cases it
    expect(tokens).toMatchObject({ 'not-before-policy': 0, session_state: claims.sid });

    const userinfo = await oauth.processUserInfoResponse(
      as,
      portal,
      claims.sub,
      await oauth.userInfoRequest(as, portal, tokens.access_token, insecure),
    );
    expect(userinfo).toMatchObject({
      email: DEMO.email,
      preferred_username: DEMO.email,
      email_verified: true,
    });

    const api = await oauth.protectedResourceRequest(
      tokens.access_token,
      'GET',
      new URL(`${origin}${apiPaths.loginStatus}`),
      undefined,
      undefined,
      insecure,
    );
    expect(api.status).toBe(200);

    const serviceAuth = oauth.ClientSecretBasic(SERVICE_SECRET);
    const introspection = await oauth.processIntrospectionResponse(
      as,
      rental,
      await oauth.introspectionRequest(as, rental, serviceAuth, tokens.refresh_token!, insecure),
    );
    expect(introspection).toMatchObject({ active: true, client_id: CLIENT_ID, sub: claims.sub });
    // The access token too (a JWT the provider does not store), on whichever instance answers.
    const accessIntrospection = await oauth.processIntrospectionResponse(
      as,
      rental,
      await oauth.introspectionRequest(as, rental, serviceAuth, tokens.access_token, insecure),
    );
    expect(accessIntrospection).toMatchObject({ active: true, client_id: CLIENT_ID, sub: claims.sub });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      portal,
      await oauth.refreshTokenGrantRequest(as, portal, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // Reuse of the rotated one is refused and ends the grant.
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        portal,
        await oauth.refreshTokenGrantRequest(as, portal, oauth.None(), tokens.refresh_token!, insecure),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        portal,
        await oauth.refreshTokenGrantRequest(as, portal, oauth.None(), refreshed.refresh_token!, insecure),
      ),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // Revoking a refresh token the reuse already ended answers 200 (RFC 7009 §2.2).
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, portal, oauth.None(), refreshed.refresh_token!, insecure),
    );
  });

  it('gets a service token by client credentials', async () => {
    const issuer = new URL(`${origin}${REALM}`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    const response = await oauth.processClientCredentialsResponse(
      as,
      rental,
      await oauth.clientCredentialsGrantRequest(
        as,
        rental,
        oauth.ClientSecretBasic(SERVICE_SECRET),
        new URLSearchParams({ scope: 'loyalty:events' }),
        insecure,
      ),
    );
    expect(response.scope).toBe('loyalty:events');
  });
});

describe('openid-client', () => {
  it('signs in, reads UserInfo, refreshes, introspects both tokens, revokes the refresh token', async () => {
    const config = await client.discovery(new URL(`${origin}${REALM}`), CLIENT_ID, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const redirectUri = `${origin}/DE/de/myaccount`;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const jar = new Map<string, string>();
    const callback = await signInThroughForm(origin, url, redirectUri, DEMO, jar);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ email: DEMO.email, session_state: claims.sid, acr: '1' });
    expect(tokens.refresh_token!.split('.')).toHaveLength(3);
    expect(tokens.refresh_expires_in).toBeGreaterThan(0);

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ given_name: 'Dora', family_name: 'Demo', locale: 'de-DE' });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);

    const rental = await client.discovery(
      new URL(`${origin}${REALM}`),
      'rental-system',
      undefined,
      client.ClientSecretBasic(SERVICE_SECRET),
      { execute: [client.allowInsecureRequests] },
    );
    expect(await client.tokenIntrospection(rental, refreshed.refresh_token!)).toMatchObject({ active: true });
    expect(await client.tokenIntrospection(rental, refreshed.access_token)).toMatchObject({
      active: true,
      sub: claims.sub,
      client_id: CLIENT_ID,
    });
    await client.tokenRevocation(config, refreshed.refresh_token!);
    expect(await client.tokenIntrospection(rental, refreshed.refresh_token!)).toMatchObject({
      active: false,
    });
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    if (servers.length > 1) expect(served.every((n) => n > 0)).toBe(true);
  });
  it('logs out by RP-initiated logout: back to the page it names, the session and its tokens ended', async () => {
    const config = await client.discovery(new URL(`${origin}${REALM}`), CLIENT_ID, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const redirectUri = `${origin}/DE/de/myaccount/profile`;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const jar = new Map<string, string>();
    const refreshed = await client.authorizationCodeGrant(
      config,
      await signInThroughForm(origin, url, redirectUri, DEMO, jar),
      { pkceCodeVerifier: verifier, expectedState: state },
    );
    const claims = refreshed.claims()!;
    const rental = await client.discovery(
      new URL(`${origin}${REALM}`),
      'rental-system',
      undefined,
      client.ClientSecretBasic(SERVICE_SECRET),
      { execute: [client.allowInsecureRequests] },
    );
    expect(await client.tokenIntrospection(rental, refreshed.access_token)).toMatchObject({ active: true });
    const logout = client.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token!,
      post_logout_redirect_uri: redirectUri,
    });
    expect(logout.pathname).toBe(`${REALM}/protocol/openid-connect/logout`);
    // The browser follows it: straight back to the page, the sign-in session and its tokens ended.
    const ended = await fetch(logout, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe(redirectUri);
    expect(ended.headers.getSetCookie().join('\n')).toMatch(/KEYCLOAK_SESSION=;/);
    expect(await client.tokenIntrospection(rental, refreshed.access_token)).toMatchObject({ active: false });
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});
