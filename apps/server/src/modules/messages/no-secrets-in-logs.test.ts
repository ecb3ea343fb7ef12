import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, appPaths, CSRF_HEADER, type DevOutboxResponse } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { loggablePath } from '../../plugins/request-log.js';

const raw: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info' }, undefined, { write: (line: string) => raw.push(line) });
});
afterAll(() => t.close());

const outbox = async () =>
  (await t.app.inject({ url: `${appPaths.devOutbox}?format=json` })).json<DevOutboxResponse>().messages;

describe('secrets of messages never reach the log', () => {
  it('logs link addresses with {token} instead of the token', () => {
    expect(loggablePath(apiPaths.unsubscribe('abcDEF123_-'))).toBe(`${apiPaths.unsubscribe('')}{token}`);
    expect(loggablePath(`${appPaths.emailConfirm('abc')}?x=1`)).toBe(`${appPaths.emailConfirm('')}{token}`);
    expect(loggablePath(apiPaths.mobile)).toBe(apiPaths.mobile);
  });

  it('neither the PIN, nor unsubscribe or confirmation tokens, while they are sent and used', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' });
    const auth = { authorization: `Bearer ${accessToken}` };
    const status = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
    const csrf = { [CSRF_HEADER]: status.headers[CSRF_HEADER.toLowerCase()] as string };

    await t.app.inject({
      method: 'PUT',
      url: apiPaths.mobile,
      headers: { ...auth, ...csrf },
      payload: { mobilePhone: '+4915123456789' },
    });
    const pin = (await outbox()).find((m) => m.kind === 'mobile-pin')!.pin!;
    const confirmed = await t.app.inject({
      method: 'PUT',
      url: apiPaths.mobile,
      headers: { ...auth, ...csrf },
      payload: { mobilePhone: '+4915123456789', pin },
    });
    expect(confirmed.statusCode).toBe(200);

    const link = (await outbox()).find((m) => m.kind === 'newsletter' && m.to === 'demo.de@example.com')!
      .links[0]!;
    const token = decodeURIComponent(new URL(link).pathname.split('/').pop()!);
    await t.app.inject({
      url: new URL(link).pathname + new URL(link).search,
      headers: { accept: 'text/html' },
    });
    expect((await t.app.inject({ url: apiPaths.unsubscribeLookup(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: apiPaths.unsubscribe(token) })).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: apiPaths.emailConfirmation, payload: { token } });

    const log = raw.join('');
    expect(log).toContain(`${apiPaths.unsubscribe('')}{token}`);
    expect(log).not.toContain(token);
    expect(log).not.toContain(pin);
  });
});
