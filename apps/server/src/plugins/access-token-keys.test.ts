import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, type LoyaltyEventInput } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';
import { serviceToken } from '../testing/service-token.js';
import { createTestCustomer } from '../testing/loyalty-members.js';

// The fleet test restarted PostgreSQL while an instance, just started again after its kill -9, read
// the signing keys for its first service token. That failed read was kept, and every service token
// on that instance got "not valid for this service" long after the database was back.
describe('the signing keys that verify access tokens', () => {
  let t: TestApp;
  let customerToken: string;
  let service: string;
  let customerId: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ accessToken: customerToken } = await signIn(t.app, {
      email: 'demo.de@example.com',
      password: 'Demo-2026!',
    }));
    service = await serviceToken(t.app, t.db, t.config);
    customerId = (await createTestCustomer(t.db)).id;
  });
  afterAll(() => t?.close());

  const keysUnreadableOnce = () =>
    vi
      .spyOn(t.app.identityProvider, 'publicJwks')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:5432'));

  it('unreadable: a customer token is not called invalid, and is taken once they can be read', async () => {
    const spy = keysUnreadableOnce();
    const call = () =>
      t.app.inject({ url: apiPaths.loginStatus, headers: { authorization: `Bearer ${customerToken}` } });
    const during = await call();
    expect(during.statusCode).toBe(500);
    expect(during.headers['www-authenticate']).toBeUndefined();
    expect(during.json()).toMatchObject({ status: 500, code: 'internal_error' });
    const after = await call();
    expect(after.statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('unreadable: a service token is not called invalid, and is taken once they can be read', async () => {
    const spy = keysUnreadableOnce();
    const event: LoyaltyEventInput = {
      sourceId: 'keys-test-1',
      customerId,
      type: 'rental-completed',
      points: 10,
    };
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: apiPaths.internalLoyaltyEvents,
        headers: { authorization: `Bearer ${service}` },
        payload: { events: [event] },
      });
    const during = await call();
    expect(during.statusCode).toBe(500);
    expect(during.headers['www-authenticate']).toBeUndefined();
    const after = await call();
    expect(after.statusCode).toBe(200);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('a token signed by no key of the realm is still an invalid token (401)', async () => {
    const [header, payload] = customerToken.split('.');
    const forged = `${header}.${payload}.${Buffer.alloc(256, 7).toString('base64url')}`;
    const res = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['www-authenticate'])).toContain('error="invalid_token"');
  });
});
