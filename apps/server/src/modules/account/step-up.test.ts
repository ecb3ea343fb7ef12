import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, CSRF_HEADER, securityErrorCodes, type ApiErrorBody } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { DEMO_PASSWORD } from '../customers/index.js';

// docs/product/security.md#step-up: the e-mail, mobile and password changes need a sign-in within
// RECENT_SIGN_IN_SECONDS (600 s here). The access tokens live an hour so the clock can move past
// the window while the token itself stays valid.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0, accessTokenTtlSeconds: 3600 });
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

async function callerOf(email: string) {
  const { accessToken } = await signIn(t.app, { email, password: DEMO_PASSWORD });
  const status = await t.app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const headers = {
    authorization: `Bearer ${accessToken}`,
    [CSRF_HEADER]: status.headers[CSRF_HEADER.toLowerCase()] as string,
  };
  return (method: 'PUT' | 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers, payload });
}

/** Moves the clock (Date only) past the step-up window. */
const elevenMinutesLater = () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60 * 1000 });
};

const expectStepUp = (res: Awaited<ReturnType<TestApp['app']['inject']>>) => {
  expect(res.statusCode).toBe(403);
  expect(res.json<ApiErrorBody>().code).toBe(securityErrorCodes.recentSignInRequired);
};

describe('step-up before sensitive changes', () => {
  it('refuses a new password after the window and accepts it within it', async () => {
    const call = await callerOf('demo.es@example.com');
    elevenMinutesLater();
    const body = { password: 'Correct-horse-battery-9', passwordOld: DEMO_PASSWORD };
    expectStepUp(await call('PUT', apiPaths.password, body));
    vi.useRealTimers();
    // The refusal changed nothing: the old password still signs in, and a fresh sign-in may change it.
    const fresh = await callerOf('demo.es@example.com');
    expect((await fresh('PUT', apiPaths.password, body)).statusCode).toBe(200);
  });

  it('refuses a new e-mail address after the window, but not other profile changes', async () => {
    const call = await callerOf('demo.fr@example.com');
    elevenMinutesLater();
    expectStepUp(await call('POST', apiPaths.personalData, { email: 'camille.new@example.com' }));
    // The language is not a sensitive change.
    expect((await call('POST', apiPaths.personalData, { language: 'fr_FR' })).statusCode).toBe(200);
    // Nothing waits for a confirmation.
    const pending = await call('POST', apiPaths.personalData, { language: 'fr_FR' });
    expect(pending.json<{ body: { pendingEmail: string | null } }>().body.pendingEmail ?? null).toBeNull();
  });

  it('refuses both steps of a mobile number change after the window', async () => {
    const call = await callerOf('demo.it@example.com');
    elevenMinutesLater();
    expectStepUp(await call('PUT', apiPaths.mobile, { mobilePhone: '+39 347 1234567' }));
    expectStepUp(await call('PUT', apiPaths.mobile, { mobilePhone: '+39 347 1234567', pin: '123456' }));
  });

  it('lets a recent sign-in change the mobile number', async () => {
    const call = await callerOf('demo.it@example.com');
    expect((await call('PUT', apiPaths.mobile, { mobilePhone: '+39 347 1234567' })).statusCode).toBe(200);
  });
});
