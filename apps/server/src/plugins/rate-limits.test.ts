import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';

// Issue 10, finding 6: a general rate limit on the API and the identity provider, per address and per
// customer, answered with 429 and Retry-After.
describe('rate limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('refuses an address over its budget on the API and the identity provider, not on static files', async () => {
    t = await createTestApp({ rateLimitPerAddress: 5, rateLimitPerCustomer: 0 });
    const faq = apiPaths.faq('loyalty-programme-faq');
    for (let i = 0; i < 4; i += 1) expect((await t.app.inject({ url: faq })).statusCode).toBeLessThan(429);
    expect(
      (await t.app.inject({ url: '/auth/realms/customer/.well-known/openid-configuration' })).statusCode,
    ).toBe(200);

    const refused = await t.app.inject({ url: faq });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      violations: [{ field: 'address', rule: 'rateLimit' }],
    });
    expect(
      (await t.app.inject({ url: '/auth/realms/customer/.well-known/openid-configuration' })).statusCode,
    ).toBe(429);
    // Another address still gets through; the app's configuration is not limited.
    expect((await t.app.inject({ url: faq, remoteAddress: '10.0.0.9' })).statusCode).toBeLessThan(429);
    expect((await t.app.inject({ url: '/config.json' })).statusCode).toBe(200);
  });

  it('refuses a customer over their budget, whatever the address', async () => {
    t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 3 });
    const de = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' });
    const fr = await signIn(t.app, { email: 'demo.fr@example.com', password: 'Demo-2026!' });
    const status = (token: string, remoteAddress: string) =>
      t!.app.inject({
        url: apiPaths.loginStatus,
        remoteAddress,
        headers: { authorization: `Bearer ${token}` },
      });

    for (let i = 0; i < 3; i += 1) expect((await status(de.accessToken, `10.0.1.${i}`)).statusCode).toBe(200);
    const refused = await status(de.accessToken, '10.0.1.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ violations: [{ field: 'customer', rule: 'rateLimit' }] });
    expect((await status(fr.accessToken, '10.0.1.9')).statusCode).toBe(200);
  });
});
