import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import {
  apiPaths,
  securityErrorCodes,
  type ApiErrorBody,
  type Passkey,
  type PasskeyList,
  type PasskeyRegistrationOptions,
  type SecurityActivityPage,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import {
  browse,
  exchangeCode,
  followToCallback,
  openLoginPage,
  signedInCaller,
  type Caller,
} from '../../testing/sign-in.js';
import { createSoftAuthenticator } from '../../testing/soft-authenticator.js';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';

let t: TestApp;
let alice: Caller;
let bob: Caller;
const authenticator = () => createSoftAuthenticator({ origin: 'http://localhost:8080', rpId: 'localhost' });

beforeAll(async () => {
  t = await createTestApp();
  alice = await signedInCaller(t.app, 'demo.de@example.com', 'Demo-2026!');
  bob = await signedInCaller(t.app, 'demo.dk@example.com', 'Demo-2026!');
});
afterAll(() => t.close());

const call = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...caller.headers,
      'user-agent': ANDROID_CHROME,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

/** Adds a passkey through the API, as the passkeys page does. */
async function addPasskey(caller: Caller, key = authenticator(), name?: string) {
  const options = await call(caller, 'POST', apiPaths.passkeyRegistrationOptions);
  expect(options.statusCode).toBe(200);
  const credential = key.register(options.json<PasskeyRegistrationOptions>());
  const created = await call(caller, 'POST', apiPaths.passkeys, { credential, ...(name ? { name } : {}) });
  return { created, credential, key, options: options.json<PasskeyRegistrationOptions>() };
}

const list = async (caller: Caller) =>
  (await call(caller, 'GET', apiPaths.passkeys)).json<PasskeyList>().passkeys;

describe('passkeys API (docs/product/security.md#passkeys)', () => {
  it('adds a passkey with user verification and a discoverable credential, named after the device', async () => {
    const { created, options } = await addPasskey(alice);
    expect((options as Record<string, unknown>).authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(options.rp).toMatchObject({ id: 'localhost', name: 'Roadpass' });
    expect(created.statusCode).toBe(201);
    const passkey = created.json<Passkey>();
    expect(passkey).toMatchObject({ name: 'Chrome · Android', lastUsedAt: null });
    expect(await list(alice)).toEqual([passkey]);
    const events = await t.db
      .selectFrom('security_events')
      .select(['kind', 'details'])
      .where('customer_id', '=', alice.uuid)
      .where('kind', '=', 'passkey_added')
      .execute();
    expect(events).toEqual([{ kind: 'passkey_added', details: { passkey: 'Chrome · Android' } }]);
    // The security activity names it (docs/product/security.md#security-activity).
    const activity = (await call(alice, 'GET', apiPaths.securityActivity)).json<SecurityActivityPage>();
    expect(activity.events.find((e) => e.kind === 'passkey_added')).toMatchObject({
      passkey: 'Chrome · Android',
    });
  });

  it('refuses a replayed registration: the challenge was used', async () => {
    const { created, credential } = await addPasskey(bob, authenticator(), 'Phone');
    expect(created.statusCode).toBe(201);
    const replay = await call(bob, 'POST', apiPaths.passkeys, { credential });
    expect(replay.statusCode).toBe(400);
    expect(replay.json<ApiErrorBody>().violations).toEqual([
      expect.objectContaining({ field: 'credential', rule: 'challenge' }),
    ]);
  });

  it('refuses an answer to another customer’s challenge and one from another origin', async () => {
    const options = await call(alice, 'POST', apiPaths.passkeyRegistrationOptions);
    const credential = authenticator().register(options.json<PasskeyRegistrationOptions>());
    const stolen = await call(bob, 'POST', apiPaths.passkeys, { credential });
    expect(stolen.json<ApiErrorBody>().violations?.[0]).toMatchObject({
      field: 'credential',
      rule: 'challenge',
    });
    const other = await call(alice, 'POST', apiPaths.passkeyRegistrationOptions);
    const phished = authenticator().register(
      other.json<PasskeyRegistrationOptions>(),
      'https://evil.example',
    );
    const refused = await call(alice, 'POST', apiPaths.passkeys, { credential: phished });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiErrorBody>().violations?.[0]).toMatchObject({
      field: 'credential',
      rule: 'verification',
    });
  });

  it('answers bad input with 400 naming the field', async () => {
    const [own] = await list(alice);
    const blank = await call(alice, 'PATCH', apiPaths.passkey(own!.id), { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<ApiErrorBody>().violations?.[0]?.field).toContain('name');
    const long = await call(alice, 'PATCH', apiPaths.passkey(own!.id), { name: 'x'.repeat(65) });
    expect(long.json<ApiErrorBody>().violations?.[0]?.field).toContain('name');
    const noCredential = await call(alice, 'POST', apiPaths.passkeys, { name: 'x' });
    expect(noCredential.statusCode).toBe(400);
    expect(JSON.stringify(noCredential.json<ApiErrorBody>().violations)).toContain('credential');
    const badId = await call(alice, 'DELETE', apiPaths.passkey('not-a-uuid'));
    expect(badId.statusCode).toBe(400);
    expect(badId.json<ApiErrorBody>().violations?.[0]?.field).toContain('passkeyId');
  });

  it('renames the customer’s own passkey; another customer’s is not found and stays as it was', async () => {
    const [own] = await list(alice);
    const renamed = await call(alice, 'PATCH', apiPaths.passkey(own!.id), { name: ' Work phone ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<Passkey>().name).toBe('Work phone');
    const [bobs] = await list(bob);
    const rename = await call(alice, 'PATCH', apiPaths.passkey(bobs!.id), { name: 'Mine now' });
    const remove = await call(alice, 'DELETE', apiPaths.passkey(bobs!.id));
    expect([rename.statusCode, remove.statusCode]).toEqual([404, 404]);
    expect(await list(bob)).toEqual([bobs]);
  });
});

describe('passkey sign-in on the sign-in page (docs/product/identity-provider.md#passkey-sign-in)', () => {
  it('signs in with a passkey exactly as with a password: code, tokens with auth_time, last used', async () => {
    const key = authenticator();
    const { created } = await addPasskey(alice, key, 'Laptop');
    const before = Math.floor(Date.now() / 1000);
    const login = await openLoginPage(t.app);
    expect(login.page.body).toContain('autocomplete="username webauthn"');
    expect(login.page.body).toContain('/resources/login-passkey.js?v=');
    const options = await browse(t.app, login.jar, `${login.loginUrl}/passkey-options`, {});
    expect(options.statusCode).toBe(200);
    const assertion = key.authenticate(options.json<{ challenge: string }>());
    const submitted = await browse(t.app, login.jar, `${login.loginUrl}/passkey`, {
      credential: JSON.stringify(assertion),
    });
    expect(submitted.statusCode).toBe(303);
    expect(submitted.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^roadpass_device=/)]),
    );
    const callback = await followToCallback(t.app, login.jar, submitted.headers.location as string);
    const token = await exchangeCode(t.app, callback.searchParams.get('code')!, login.verifier);
    expect(token.statusCode).toBe(200);
    const claims = decodeJwt(token.json<{ access_token: string }>().access_token);
    expect(claims.sub).toBe(alice.uuid);
    expect(claims.auth_time).toBeGreaterThanOrEqual(before - 1);
    const used = (await list(alice)).find((p) => p.id === created.json<Passkey>().id);
    expect(used?.lastUsedAt).not.toBeNull();

    // The same assertion again, on a new sign-in page: refused with the one message for every failure.
    const again = await openLoginPage(t.app);
    await browse(t.app, again.jar, `${again.loginUrl}/passkey-options`, {});
    const replay = await browse(t.app, again.jar, `${again.loginUrl}/passkey`, {
      credential: JSON.stringify(assertion),
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.body).toContain('Signing in with a passkey did not work');
  });

  it('refuses an unknown passkey, a forged signature and garbage with the same message', async () => {
    const stranger = authenticator();
    const login = await openLoginPage(t.app, { uiLocales: 'de' });
    const answers: string[] = [];
    for (const make of [
      (challenge: string) => JSON.stringify(stranger.authenticate({ challenge })),
      () => '{"id":"x","response":{}}',
      () => 'not json',
    ]) {
      const options = await browse(t.app, login.jar, `${login.loginUrl}/passkey-options`, {});
      const res = await browse(t.app, login.jar, `${login.loginUrl}/passkey`, {
        credential: make(options.json<{ challenge: string }>().challenge),
      });
      answers.push(`${res.statusCode} ${/id="form-error" role="alert">([^<]*)</.exec(res.body)?.[1]}`);
    }
    const message = 'Die Anmeldung mit deinem Passkey hat nicht geklappt.';
    expect(answers.map((a) => a.slice(0, 4 + message.length))).toEqual(Array(3).fill(`401 ${message}`));
  });
});

describe('step-up for passkeys (docs/product/security.md#step-up)', () => {
  it('refuses adding and removing without a recent sign-in; renaming and listing still work', async () => {
    const stale = await createTestApp({ recentSignInSeconds: -1 }, t.db);
    try {
      const [own] = await list(alice);
      const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
        stale.app.inject({
          method,
          url,
          headers: {
            ...alice.headers,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
      const answers = await Promise.all([
        inject('POST', apiPaths.passkeyRegistrationOptions),
        inject('DELETE', apiPaths.passkey(own!.id)),
      ]);
      expect(answers.map((r) => `${r.statusCode} ${r.json<ApiErrorBody>().code}`)).toEqual([
        `403 ${securityErrorCodes.recentSignInRequired}`,
        `403 ${securityErrorCodes.recentSignInRequired}`,
      ]);
      expect((await inject('PATCH', apiPaths.passkey(own!.id), { name: 'Still mine' })).statusCode).toBe(200);
      expect((await inject('GET', apiPaths.passkeys)).statusCode).toBe(200);
    } finally {
      await stale.app.close();
    }
  });

  it('removes the customer’s own passkey with a recent sign-in and records it', async () => {
    const before = await list(alice);
    const removed = await call(alice, 'DELETE', apiPaths.passkey(before[0]!.id));
    expect(removed.statusCode).toBe(204);
    expect(await list(alice)).toEqual(before.slice(1));
    const kinds = await t.db
      .selectFrom('security_events')
      .select('kind')
      .where('customer_id', '=', alice.uuid)
      .where('kind', '=', 'passkey_removed')
      .execute();
    expect(kinds).toHaveLength(1);
  });
});
