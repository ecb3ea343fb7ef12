import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, CSRF_HEADER } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { pathOf, providerEndpoints, signIn, type TokenSet } from '../../testing/sign-in.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const refresh = (tokens: TokenSet) =>
  t.app.inject({
    method: 'POST',
    url: pathOf(providerEndpoints(t.app).token),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
      client_id: 'portal-client',
    }).toString(),
  });
const csrfOf = async (tokens: TokenSet) =>
  (
    await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    })
  ).headers[CSRF_HEADER.toLowerCase()] as string;
const logout = (tokens: TokenSet, csrf: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.logout,
    headers: { authorization: `Bearer ${tokens.accessToken}`, ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
  });
const sessionRows = () =>
  t.db.selectFrom('oidc_model_instances').select('id').where('kind', '=', 'Session').execute();

describe('POST /customer/logout', () => {
  it('ends this session on the server: its refresh token stops working, another session of the customer goes on', async () => {
    const here = await signIn(t.app, { email: 'demo.at@example.com', password: 'Demo-2026!' });
    const elsewhere = await signIn(t.app, { email: 'demo.at@example.com', password: 'Demo-2026!' });
    const sessionsBefore = (await sessionRows()).length;

    const res = await logout(here, await csrfOf(here));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessionsEnded: 1 });
    expect((await sessionRows()).length).toBe(sessionsBefore - 1);

    const refused = await refresh(here);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toBe('invalid_grant');
    const renewed = await refresh(elsewhere);
    expect(renewed.statusCode).toBe(200);
  });

  it('needs a bearer token and the anti-forgery header, ending nothing otherwise', async () => {
    const tokens = await signIn(t.app, { email: 'demo.fr@example.com', password: 'Demo-2026!' });
    const other = await signIn(t.app, { email: 'demo.es@example.com', password: 'Demo-2026!' });
    const before = (await sessionRows()).length;
    expect((await t.app.inject({ method: 'POST', url: apiPaths.logout })).statusCode).toBe(401);
    expect((await logout(tokens, undefined)).statusCode).toBe(403);
    expect((await logout(tokens, await csrfOf(other))).statusCode).toBe(403);
    expect((await sessionRows()).length).toBe(before);
    expect((await refresh(tokens)).statusCode).toBe(200);
  });
});
