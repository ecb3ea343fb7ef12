import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiPaths,
  appPaths,
  type DevOutboxMessage,
  type DevOutboxResponse,
  type LoginStatus,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  authorizationRequest,
  browse,
  exchangeCode,
  CookieJar,
  followToCallback,
  openLoginPage,
  pathOf,
  refresh,
  signInWithSession,
} from '../testing/sign-in.js';
import { DEMO_PASSWORD } from '../modules/customers/index.js';
import { RESETS_PER_ACCOUNT_PER_HOUR } from '../modules/recovery/index.js';

// docs/product/security.md#forgot-password and #new-device-notice, through the pages as a browser
// uses them (app.inject with a cookie jar).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const outbox = async (): Promise<DevOutboxMessage[]> =>
  (await t.app.inject({ url: `${appPaths.devOutbox}?format=json` })).json<DevOutboxResponse>().messages;
const mails = async (to: string, kind: string) =>
  (await outbox()).filter((m) => m.to === to && m.kind === kind);
/** Waits for background mail (the pages answer before it is sent). */
const waitForMails = async (to: string, kind: string, count: number) =>
  vi.waitFor(async () => expect(await mails(to, kind)).toHaveLength(count), {
    timeout: 10_000,
    interval: 100,
  });

const securityEvents = async (email: string, kind: string) =>
  t.db
    .selectFrom('security_events')
    .innerJoin('customers', 'customers.id', 'security_events.customer_id')
    .select('security_events.details')
    .where('customers.email', '=', email)
    .where('security_events.kind', '=', kind)
    .execute();

/** Opens the sign-in page, follows "Forgot your password?" and sends the address. */
async function askForReset(email: string) {
  const { jar, page } = await openLoginPage(t.app, { uiLocales: 'en' });
  const forgotHref = /href="([^"]*forgot-password[^"]*)"/.exec(page.body)?.[1]?.replace(/&amp;/g, '&');
  expect(forgotHref).toBeDefined();
  const form = await browse(t.app, jar, forgotHref!);
  expect(form.statusCode).toBe(200);
  expect(form.body).toContain('Reset your password');
  return browse(t.app, jar, forgotHref!, { email });
}

const linkOf = (message: DevOutboxMessage) => pathOf(message.links[0]!);

describe('forgot password', () => {
  it('answers an unknown address exactly as a known one, and mails only the known one', async () => {
    const known = await askForReset('demo.nl@example.com');
    const unknown = await askForReset('nobody.here@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(known.statusCode).toBe(200);
    const scrub = (body: string, email: string) =>
      body.replaceAll(email, 'EMAIL').replace(/login-actions\/[^/"?]+/g, 'UID');
    expect(scrub(unknown.body, 'nobody.here@example.com')).toBe(scrub(known.body, 'demo.nl@example.com'));
    await waitForMails('demo.nl@example.com', 'password-reset', 1);
    // Dutch customer, Dutch e-mail.
    expect((await mails('demo.nl@example.com', 'password-reset'))[0]!.subject).toBe(
      'Stel je Roadpass-wachtwoord opnieuw in',
    );
    expect(await mails('nobody.here@example.com', 'password-reset')).toHaveLength(0);
  });

  it('sets a password that follows the rules, ends every session, signs this browser in, once', async () => {
    const email = 'demo.at@example.com';
    const before = await signInWithSession(t.app, { email, password: DEMO_PASSWORD });
    await askForReset(email);
    await waitForMails(email, 'password-reset', 1);
    const link = linkOf((await mails(email, 'password-reset'))[0]!);

    const browser = new CookieJar();
    const page = await browse(t.app, browser, link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('autocomplete="new-password"');
    // The served rules, each broken one named at the field.
    const weak = await browse(t.app, browser, link, { password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('aria-invalid="true"');
    expect(weak.body).toMatch(/id="password-error" role="alert"><p>[^<]+<\/p>/);
    const common = await browse(t.app, browser, link, { password: 'password123' });
    expect(common.statusCode).toBe(400);

    const done = await browse(t.app, browser, link, { password: 'Fresh-start-2026' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('http://localhost:8080/');
    // The session from before is over: its refresh token no longer works.
    expect((await refresh(t.app, before.tokens.refreshToken)).ok).toBe(false);
    expect(await securityEvents(email, 'password_reset')).toHaveLength(1);
    // The link works once.
    expect((await browse(t.app, browser, link)).statusCode).toBe(404);
    expect((await browse(t.app, browser, link, { password: 'Another-one-2026' })).statusCode).toBe(404);

    // The app's next sign-in request in this browser lands signed in, without the password.
    const { url, verifier } = authorizationRequest(t.app);
    const authorization = await browse(t.app, browser, url);
    const callback = await followToCallback(t.app, browser, authorization.headers.location as string);
    const token = await exchangeCode(t.app, callback.searchParams.get('code')!, verifier);
    expect(token.statusCode).toBe(200);
    const status = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}` },
    });
    expect(status.json<LoginStatus>().user.email).toBe(email);
    // Only once: a sign-in that asks for the password again shows the form.
    const form = await openLoginPage(t.app, { jar: browser, params: { prompt: 'login' } });
    expect(form.page.body).toContain('autocomplete="current-password"');
    const again = await signInWithSession(t.app, { email, password: 'Fresh-start-2026' });
    expect(again.tokens.accessToken).toBeTruthy();
    await expect(signInWithSession(t.app, { email, password: DEMO_PASSWORD })).rejects.toThrow(/401/);
  });

  it('refuses a link after 30 minutes', async () => {
    const email = 'demo.fr@example.com';
    await askForReset(email);
    await waitForMails(email, 'password-reset', 1);
    const link = linkOf((await mails(email, 'password-reset'))[0]!);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 29 * 60 * 1000 });
    expect((await browse(t.app, new CookieJar(), link)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    const expired = await browse(t.app, new CookieJar(), link, { password: 'Fresh-start-2026' });
    expect(expired.statusCode).toBe(404);
    expect(expired.body).toContain('Ce lien ne fonctionne plus');
  });

  it('sends at most a few links per account an hour, answering every request alike', async () => {
    const email = 'demo.hu@example.com';
    // All at once: the limit must hold for requests that arrive together, not only one after another.
    const answers = (
      await Promise.all(Array.from({ length: RESETS_PER_ACCOUNT_PER_HOUR + 3 }, () => askForReset(email)))
    ).map((answer) => answer.statusCode);
    expect(new Set(answers)).toEqual(new Set([200]));
    await waitForMails(email, 'password-reset', RESETS_PER_ACCOUNT_PER_HOUR);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mails(email, 'password-reset')).toHaveLength(RESETS_PER_ACCOUNT_PER_HOUR);
    // The flood locks nobody out: the customer still signs in, and after the hour can reset again.
    await signInWithSession(t.app, { email, password: DEMO_PASSWORD });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60 * 1000 });
    await askForReset(email);
    await waitForMails(email, 'password-reset', RESETS_PER_ACCOUNT_PER_HOUR + 1);
  });
});

describe('new-device sign-in notice', () => {
  it('is not sent on the first sign-in ever, then once per new device; "wasn\'t me" ends every session once', async () => {
    const email = 'demo.es@example.com';
    const firstDevice = await signInWithSession(t.app, { email, password: DEMO_PASSWORD });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mails(email, 'new-device')).toHaveLength(0);

    // The same browser again: a known device.
    const { loginUrl, jar } = await openLoginPage(t.app, {
      jar: firstDevice.jar,
      params: { prompt: 'login' },
    });
    const known = await browse(t.app, jar, loginUrl, { email, password: DEMO_PASSWORD });
    expect(known.statusCode).toBe(303);
    await followToCallback(t.app, jar, known.headers.location as string);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mails(email, 'new-device')).toHaveLength(0);

    // Another browser: one notice, in Spanish, with device, address and the link.
    const { loginUrl: otherUrl, jar: other } = await openLoginPage(t.app);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: pathOf(otherUrl),
      headers: {
        cookie: other.headerFor(otherUrl)!,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
      },
      payload: new URLSearchParams({ email, password: DEMO_PASSWORD }).toString(),
    });
    expect(signedIn.statusCode).toBe(303);
    other.store(signedIn);
    await waitForMails(email, 'new-device', 1);
    const notice = (await mails(email, 'new-device'))[0]!;
    expect(notice.subject).toBe('Nuevo inicio de sesión en tu cuenta de Roadpass');
    expect(notice.text).toContain('Firefox · Windows 10');
    expect(notice.text).toMatch(/127\.0\.0\.x/);

    // That browser again: no second notice.
    const { loginUrl: thirdUrl } = await openLoginPage(t.app, { jar: other, params: { prompt: 'login' } });
    expect((await browse(t.app, other, thirdUrl, { email, password: DEMO_PASSWORD })).statusCode).toBe(303);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mails(email, 'new-device')).toHaveLength(1);

    // "This wasn't me": opening the link changes nothing; its button ends every session.
    const link = linkOf(notice);
    const page = await browse(t.app, new CookieJar(), link);
    expect(page.statusCode).toBe(200);
    expect((await refresh(t.app, firstDevice.tokens.refreshToken)).ok).toBe(true);
    const done = await browse(t.app, new CookieJar(), link, {});
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toMatch(/\/password-reset\/[A-Za-z0-9_-]{43}\?lang=es$/);
    expect((await refresh(t.app, firstDevice.tokens.refreshToken)).ok).toBe(false);
    // The access token in hand is refused too.
    const status = await t.app.inject({
      url: apiPaths.loginStatus,
      headers: { authorization: `Bearer ${firstDevice.tokens.accessToken}` },
    });
    expect(status.statusCode).toBe(401);
    expect(await securityEvents(email, 'not_me')).toHaveLength(1);
    // It leads to the reset page, and it works once.
    expect((await browse(t.app, new CookieJar(), done.headers.location as string)).statusCode).toBe(200);
    expect((await browse(t.app, new CookieJar(), link, {})).statusCode).toBe(404);
  });
});
