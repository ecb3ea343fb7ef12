import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from './testing/test-app.js';
import { signInThroughForm } from './testing/form-sign-in.js';
import { freePort } from './testing/server-process.js';

// Issue 20 §3 with a real client library's DPoP support: openid-client 6 (from the registry) signs in
// with code + PKCE through the real sign-in form with DPoP, calls the API and UserInfo with proofs,
// refreshes with its bound refresh token, and follows the server nonce when it is required
// (decision 0044). The app listens on a real port; openid-client talks HTTP to it.

vi.setConfig({ testTimeout: 60_000 });

const DEMO = { email: 'demo.de@example.com', password: 'Demo-2026!' };
const REALM = '/auth/realms/customer';

for (const requireNonce of [false, true]) {
  describe(`openid-client 6 with DPoP${requireNonce ? ', nonce required' : ''}`, () => {
    let t: TestApp;
    let origin: string;

    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      t = await createTestApp({ publicUrl: origin, dpopRequireNonce: requireNonce });
      await t.app.listen({ port, host: '127.0.0.1' });
    });
    afterAll(() => t?.close());

    it('signs in with code + PKCE and DPoP, calls the API and UserInfo, refreshes with the bound token', async () => {
      const config = await client.discovery(
        new URL(`${origin}${REALM}`),
        'portal-client',
        undefined,
        client.None(),
        {
          execute: [client.allowInsecureRequests],
        },
      );
      const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      const redirectUri = `${origin}/login/callback`;
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const callback = await signInThroughForm(origin, url, redirectUri, DEMO);
      const tokens = await client.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: verifier, expectedState: state },
        undefined,
        { DPoP },
      );
      expect(tokens.token_type).toBe('dpop');
      expect(decodeJwt(tokens.access_token).cnf).toMatchObject({ jkt: expect.any(String) });

      // The API, with a fresh proof per call (openid-client makes one each time).
      for (let i = 0; i < 3; i++) {
        const res = await client.fetchProtectedResource(
          config,
          tokens.access_token,
          new URL(`${origin}${apiPaths.loginStatus}`),
          'GET',
          undefined,
          undefined,
          { DPoP },
        );
        expect(res.status, await res.clone().text()).toBe(200);
        expect(((await res.json()) as { user: { email?: string } }).user).toBeTruthy();
      }
      const claims = tokens.claims()!;
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP });
      expect(userinfo).toMatchObject({ email: DEMO.email });

      // The same token without the key: useless.
      const stolen = await fetch(`${origin}${apiPaths.loginStatus}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(stolen.status).toBe(401);
      const otherKey = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      await expect(
        client.fetchProtectedResource(
          config,
          tokens.access_token,
          new URL(`${origin}${apiPaths.loginStatus}`),
          'GET',
          undefined,
          undefined,
          { DPoP: otherKey },
        ),
      ).rejects.toThrow();
      await expect(
        client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: otherKey }),
      ).rejects.toThrow();

      const renewed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
      expect(renewed.token_type).toBe('dpop');
      const again = await client.fetchProtectedResource(
        config,
        renewed.access_token,
        new URL(`${origin}${apiPaths.loginStatus}`),
        'GET',
        undefined,
        undefined,
        { DPoP },
      );
      expect(again.status).toBe(200);
    });
  });
}
