import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type LoginStatus, type RuntimeConfig } from '@roadpass/contracts';
import { startExternalRealm, type ExternalRealm } from '../testing/external-realm.js';
import type { TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';

// The issuer plays the external realm: a real OIDC provider listening on a port, whose keys the
// service fetches over HTTP from {issuer}/protocol/openid-connect/certs, as it would from Keycloak.
let issuer: TestApp;
let service: TestApp;
let issuerUrl: string;
let realm: ExternalRealm;

beforeAll(async () => {
  realm = await startExternalRealm();
  ({ issuer, service, realmUrl: issuerUrl } = realm);
});
afterAll(() => realm?.close());

describe('trusting an external issuer by configuration alone', () => {
  it('sends the app to the external realm', async () => {
    const config = (await service.app.inject({ url: '/config.json' })).json<RuntimeConfig>();
    expect(config.identityProvider).toEqual({
      url: issuerUrl.replace('/realms/customer', ''),
      realm: 'customer',
      clientId: 'portal-client',
    });
  });

  it('does not mount its own provider', async () => {
    const res = await service.app.inject({ url: '/auth/realms/customer/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(404);
  });

  it("accepts the realm's access tokens, checked against its published keys", async () => {
    const { accessToken } = await signIn(issuer.app, {
      email: 'demo.dk@example.com',
      password: 'Demo-2026!',
    });
    const res = await service.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<LoginStatus>().user.email).toBe('demo.dk@example.com');
  });

  it('allows the realm in the Content-Security-Policy', async () => {
    const csp = (await service.app.inject({ url: '/config.json' })).headers[
      'content-security-policy'
    ] as string;
    expect(csp).toContain(`connect-src 'self' ${new URL(issuerUrl).origin}`);
  });
});
