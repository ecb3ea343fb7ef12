import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { apiPaths, CSRF_HEADER } from '@roadpass/contracts';
import { createTestDatabase, testDbTarget } from '../../testing/test-database.js';
import { cookieFetch, signInThroughForm } from '../../testing/form-sign-in.js';
import { freePort, startServer, type ServerProcess } from '../../testing/server-process.js';

// Issue 18 §1 with a real OIDC client (openid-client 6) against built server processes: every way a
// session ends makes its access token refused within a second — on a PostgreSQL server by the OTHER
// instance (two instances, one database); on embedded PGlite (one process per data folder) by the same.

const EMAIL = 'demo.nl@example.com';
const PASSWORD = 'Demo-2026!';
const running: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let signer: ServerProcess;
let checker: ServerProcess;
let client: oidc.Configuration;
let redirectUri: string;

beforeAll(async () => {
  let env: Record<string, string>;
  if (testDbTarget() === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-sessions-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  } else {
    const database = await createTestDatabase();
    await database.db.destroy();
    cleanups.push(() => database.drop());
    env = { DATABASE_URL: database.url!, DATABASE_POOL_SIZE: '5' };
  }
  // Instances behind one load balancer share the public URL (the tokens' issuer).
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  signer = await startServer({ ...env, PUBLIC_URL: publicUrl }, port);
  running.push(signer);
  checker = testDbTarget() === 'pglite' ? signer : await startServer({ ...env, PUBLIC_URL: publicUrl });
  if (checker !== signer) running.push(checker);
  redirectUri = `${publicUrl}/login/callback`;
  client = await oidc.discovery(
    new URL(`${publicUrl}/auth/realms/customer`),
    'portal-client',
    undefined,
    oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A browser's cookie jar for the provider's pages. */
class Browser {
  readonly jar = new Map<string, string>();
  readonly go = cookieFetch(this.jar);
}

/** Signs in as a browser would (the realm's form), the code exchanged by openid-client. */
async function signIn(): Promise<{ tokens: oidc.TokenEndpointResponse; browser: Browser }> {
  const browser = new Browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await signInThroughForm(
    url.origin,
    url,
    redirectUri,
    { email: EMAIL, password: PASSWORD },
    browser.jar,
  );
  const tokens = await oidc.authorizationCodeGrant(client, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { tokens, browser };
}

const api = (server: ServerProcess, accessToken: string, init: RequestInit = {}) =>
  fetch(`${server.origin}${apiPaths.loginStatus}`, {
    ...init,
    headers: { authorization: `Bearer ${accessToken}`, ...(init.headers as Record<string, string>) },
  });

/** Polls the other instance for at most a second: the token must be refused by then. */
async function refusedWithinASecond(accessToken: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await api(checker, accessToken);
    if (res.status === 401) return Date.now() - started;
    expect(res.status).toBe(200);
    if (Date.now() - started > 1000) throw new Error('the access token still works after 1 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ending a session ends its access tokens on every instance (openid-client 6)', () => {
  it('RP-initiated logout', async () => {
    const { tokens, browser } = await signIn();
    expect((await api(checker, tokens.access_token)).status).toBe(200);
    const res = await browser.go(
      oidc.buildEndSessionUrl(client, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: `${signer.origin}/`,
      }),
    );
    expect(res.status).toBe(303);
    await refusedWithinASecond(tokens.access_token);
  });

  it("the app's logout call", async () => {
    const { tokens } = await signIn();
    const csrf = (await api(checker, tokens.access_token)).headers.get(CSRF_HEADER)!;
    const res = await fetch(`${signer.origin}${apiPaths.logout}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, [CSRF_HEADER]: csrf },
    });
    expect(res.status).toBe(200);
    await refusedWithinASecond(tokens.access_token);
  });

  it('refresh-token reuse detection (RFC 9700)', async () => {
    const { tokens } = await signIn();
    const renewed = await oidc.refreshTokenGrant(client, tokens.refresh_token!);
    expect((await api(checker, renewed.access_token)).status).toBe(200);
    await expect(oidc.refreshTokenGrant(client, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await refusedWithinASecond(renewed.access_token);
  });

  it('revocation of the refresh token (RFC 7009)', async () => {
    const { tokens } = await signIn();
    await oidc.tokenRevocation(client, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    await refusedWithinASecond(tokens.access_token);
  });
});
