import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { securityErrorCodes } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { pathOf, providerEndpoints, signIn } from '../testing/sign-in.js';
import { ApiError } from '../lib/api-error.js';
import { assertRecentSignIn } from './recent-sign-in.js';
import type { CustomerIdentity } from './customer-auth.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const identity = (claims: Record<string, unknown>): CustomerIdentity => ({
  customerId: 'c',
  sessionId: undefined,
  legalEntityId: undefined,
  claims,
});

describe('step-up: a sensitive change needs a recent sign-in (docs/product/security.md#step-up)', () => {
  it('access tokens carry the sign-in time, also after a refresh', async () => {
    const before = Math.floor(Date.now() / 1000);
    const tokens = await signIn(t.app, { email: 'demo.at@example.com', password: 'Demo-2026!' });
    const authTime = decodeJwt(tokens.accessToken).auth_time as number;
    expect(authTime).toBeGreaterThanOrEqual(before - 1);
    expect(authTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const refreshed = await t.app.inject({
      method: 'POST',
      url: pathOf(providerEndpoints(t.app).token),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
        client_id: 'portal-client',
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.json<{ access_token: string }>().access_token).auth_time).toBe(authTime);
  });

  it('passes within the period and refuses with recent_sign_in_required after it or without auth_time', () => {
    const now = 1_800_000_000;
    expect(() => assertRecentSignIn(identity({ auth_time: now - 600 }), 600, now)).not.toThrow();
    for (const claims of [{ auth_time: now - 601 }, {}, { auth_time: String(now) }]) {
      let error: unknown;
      try {
        assertRecentSignIn(identity(claims), 600, now);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).statusCode).toBe(403);
      expect((error as ApiError).code).toBe(securityErrorCodes.recentSignInRequired);
    }
  });
});
