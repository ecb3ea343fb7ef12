import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { endSessions } from '../modules/sessions/index.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { signIn } from '../testing/sign-in.js';

// The test hooks browser tests and the session-check benchmark use (test mode only).
let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await createTestApp({ faultInjection: true, rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
  off = await createTestApp({ faultInjection: false });
});
afterAll(async () => {
  await t.close();
  await off.close();
});

const status = (app: TestApp, token: string) =>
  app.app.inject({ url: apiPaths.loginStatus, headers: { authorization: `Bearer ${token}` } });

describe('test hooks', () => {
  it('give a test a customer of its own, who can sign in with the demo password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/__test__/customers',
      payload: { country: 'HU' },
    });
    expect(res.statusCode).toBe(201);
    const { email } = res.json<{ email: string }>();
    expect(email).toMatch(/^e2e-[0-9a-f-]{36}@example\.com$/);
    const tokens = await signIn(t.app, { email, password: 'Demo-2026!' });
    expect((await status(t, tokens.accessToken)).statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/__test__/customers',
      payload: { country: 'XX' },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('answer a fault with the error code asked for', async () => {
    const scope = 'code-test';
    await t.app.inject({
      method: 'POST',
      url: '/__test__/faults',
      payload: { pathPrefix: '/api/x', status: 403, code: 'recent_sign_in_required', times: 1, scope },
    });
    const res = await t.app.inject({ url: '/api/x', headers: { 'x-fault-scope': scope } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'recent_sign_in_required' });
  });

  it('turn the ended-session check off and on again (the benchmark baseline)', async () => {
    const { email } = (
      await t.app.inject({ method: 'POST', url: '/__test__/customers', payload: { country: 'DE' } })
    ).json<{ email: string }>();
    const tokens = await signIn(t.app, { email, password: 'Demo-2026!' });
    const customerId = (
      await t.db.selectFrom('customers').select('id').where('email', '=', email).executeTakeFirstOrThrow()
    ).id;
    await endSessions(t.db, customerId, 'all', 'signed_out');
    expect((await status(t, tokens.accessToken)).statusCode).toBe(401);
    const turn = (enabled: boolean) =>
      t.app.inject({ method: 'PUT', url: '/__test__/session-check', payload: { enabled } });
    expect((await turn(false)).statusCode).toBe(204);
    expect((await status(t, tokens.accessToken)).statusCode).toBe(200);
    expect((await turn(true)).statusCode).toBe(204);
    expect((await status(t, tokens.accessToken)).statusCode).toBe(401);
  });

  it('do not exist outside test mode', async () => {
    for (const [method, url] of [
      ['POST', '/__test__/customers'],
      ['PUT', '/__test__/session-check'],
    ] as const) {
      const res = await off.app.inject({ method, url, payload: {} });
      expect(res.statusCode).toBe(404);
    }
  });
});
