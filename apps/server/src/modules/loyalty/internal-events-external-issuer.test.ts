import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type ApiErrorBody, type LoyaltyEventBatchResult } from '@roadpass/contracts';
import { startExternalRealm, type ExternalRealm } from '../../testing/external-realm.js';
import { testConfig, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { serviceToken } from '../../testing/service-token.js';

// The issuer plays the external realm (Keycloak): a real provider on a port, whose keys the service
// fetches over HTTP. The service trusts it by configuration alone and has no provider of its own.
let issuer: TestApp;
let service: TestApp;
let realm: ExternalRealm;

beforeAll(async () => {
  realm = await startExternalRealm({ loyaltyAudience: testConfig().loyaltyAudience });
  ({ issuer, service } = realm);
});
afterAll(() => realm?.close());

const send = (bearer: string, customerId: string) =>
  service.app.inject({
    method: 'POST',
    url: apiPaths.internalLoyaltyEvents,
    headers: { authorization: `Bearer ${bearer}` },
    payload: { events: [{ sourceId: 'rental-ext-1', customerId, type: 'rental-completed', points: 40 }] },
  });

describe('the internal endpoint behind an external issuer', () => {
  it("accepts the realm's service account token, checked against its keys, audience and scope", async () => {
    const member = await createTestCustomer(issuer.db);
    const res = await send(await serviceToken(issuer.app, issuer.db, issuer.config), member.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<LoyaltyEventBatchResult>().recorded).toBe(1);
  });

  it("refuses the realm's customer tokens with 403", async () => {
    const member = await createTestCustomer(issuer.db);
    const { accessToken } = await signIn(issuer.app, {
      email: 'demo.dk@example.com',
      password: 'Demo-2026!',
    });
    const res = await send(accessToken, member.id);
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().message).toMatch(/customer access token/);
  });
});
