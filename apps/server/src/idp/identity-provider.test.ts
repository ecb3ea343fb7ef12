import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { RuntimeConfig } from '@roadpass/contracts';
import { createCustomerRepository } from '../modules/customers/index.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  authorizationRequest,
  browse,
  CookieJar,
  exchangeCode,
  followToCallback,
  openLoginPage,
  pathOf,
  providerEndpoints,
  refresh,
  signIn,
  signInWithSession,
} from '../testing/sign-in.js';

const DEMO_DE = { email: 'demo.de@example.com', password: 'Demo-2026!' };
const REALM = '/auth/realms/customer';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * The text of the page's role="alert" elements that say something (the passkey message waits empty
 * and hidden until its script fills it).
 */
const alerts = (html: string) =>
  [...html.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((m) => m[1]).filter((text) => text !== '');

describe('discovery', () => {
  it('publishes the realm at Keycloak’s paths', async () => {
    const res = await t.app.inject({ url: `${REALM}/.well-known/openid-configuration` });
    expect(res.statusCode).toBe(200);
    const issuer = `${t.config.publicUrl}${REALM}`;
    expect(res.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
      userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(t.app.identityProvider.issuer).toBe(issuer);
  });

  it('names in the app’s runtime configuration the endpoints its document names, so the app need not ask', async () => {
    const document = (await t.app.inject({ url: `${REALM}/.well-known/openid-configuration` })).json<
      Record<string, unknown>
    >();
    const config = (await t.app.inject({ url: '/config.json' })).json<RuntimeConfig>();
    const metadata = config.identityProvider.metadata!;
    expect(Object.keys(metadata).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(metadata)) expect(value, name).toBe(document[name]);
  });

  it('lets the browser keep the document five minutes, at every address it is published at', async () => {
    for (const url of [
      `${REALM}/.well-known/openid-configuration`,
      `/.well-known/oauth-authorization-server${REALM}`,
      `${REALM}/.well-known/oauth-authorization-server`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=300');
    }
    // The provider's other answers keep their own rules.
    const jwks = await t.app.inject({ url: `${REALM}/protocol/openid-connect/certs` });
    expect(jwks.headers['cache-control']).not.toBe('public, max-age=300');
  });

  it('builds its URLs from the configured public origin, whatever Host or forwarded headers say', async () => {
    const res = await t.app.inject({
      url: `${REALM}/.well-known/openid-configuration`,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.json<{ token_endpoint: string }>().token_endpoint).toBe(
      `${t.config.publicUrl}${REALM}/protocol/openid-connect/token`,
    );
  });

  it('answers under its paths only: an unknown realm path is the provider’s 404, a method a Fastify route of the realm lacks is the API’s', async () => {
    const unknown = await t.app.inject({ url: `${REALM}/protocol/openid-connect/nothing-here` });
    expect(unknown.statusCode).toBe(404);
    const put = await t.app.inject({ method: 'PUT', url: `${REALM}/protocol/openid-connect/userinfo` });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ code: 'not_found' });
  });

  it('publishes only public keys at /certs, the same as publicJwks()', async () => {
    const res = await t.app.inject({ url: `${REALM}/protocol/openid-connect/certs` });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json<{ keys: Record<string, unknown>[] }>();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toHaveProperty('d');
    const published = (await t.app.identityProvider.publicJwks()).keys;
    expect(keys.map((k) => k.kid)).toEqual(published.map((k) => k.kid));
    expect(keys.map((k) => k.n)).toEqual(published.map((k) => k.n));
  });
});

describe('sign-in', () => {
  it('gives a JWT access token for the customer API with the Keycloak-style claims', async () => {
    const tokens = await signIn(t.app, DEMO_DE);
    const customer = await t.db
      .selectFrom('customers')
      .select(['id', 'legal_entity_id'])
      .where('email', '=', DEMO_DE.email)
      .executeTakeFirstOrThrow();

    const { payload, protectedHeader } = await jwtVerify(
      tokens.accessToken,
      createLocalJWKSet(await t.app.identityProvider.publicJwks()),
      { issuer: t.app.identityProvider.issuer, audience: 'urn:roadpass:customer-api' },
    );
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe(customer.id);
    expect(payload.legal_entity).toBe(10);
    // The customer's language, so the app's error screens speak it even when the customer cannot be loaded.
    expect(payload.locale).toBe('de-DE');
    expect(payload.realm_access).toEqual({ roles: [] });
    expect(payload.resource_access).toEqual({});
    expect(typeof payload.sid).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(t.config.accessTokenTtlSeconds);
    expect(tokens.expiresIn).toBe(t.config.accessTokenTtlSeconds);
    // Keycloak's shape: a JWT wrapping the provider's opaque refresh token (docs/keycloak-clients.md).
    const wrapped = decodeJwt(tokens.refreshToken);
    expect(wrapped.typ).toBe('Refresh');
    expect(wrapped.rt).toMatch(/^[\w-]{20,}$/);

    // The refresh token is stored (under its kind) and lives for the configured time.
    const stored = await t.db
      .selectFrom('oidc_model_instances')
      .select(['expires_at', 'grant_id'])
      .where('kind', '=', 'RefreshToken')
      .where('id', '=', String(wrapped.rt))
      .executeTakeFirstOrThrow();
    const lifetime = (stored.expires_at!.getTime() - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(t.config.refreshTokenTtlSeconds - 60);
    expect(lifetime).toBeLessThanOrEqual(t.config.refreshTokenTtlSeconds);
    expect(stored.grant_id).toBeTruthy();
  });

  it('puts the profile in the ID token and answers UserInfo for the access token', async () => {
    const tokens = await signIn(t.app, DEMO_DE);
    const idToken = decodeJwt(tokens.idToken);
    expect(idToken).toMatchObject({
      aud: 'portal-client',
      name: 'Dora Demo',
      given_name: 'Dora',
      family_name: 'Demo',
      email: DEMO_DE.email,
      locale: 'de-DE',
      sid: decodeJwt(tokens.accessToken).sid,
    });
    const userinfo = await t.app.inject({
      url: `${REALM}/protocol/openid-connect/userinfo`,
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json()).toMatchObject({ sub: idToken.sub, email: DEMO_DE.email, name: 'Dora Demo' });
  });

  it('reuses the session: a second authorization needs no password and no consent screen', async () => {
    const { jar } = await signInWithSession(t.app, DEMO_DE);
    const { url } = authorizationRequest(t.app);
    const res = await browse(t.app, jar, url);
    expect(res.statusCode).toBe(303);
    const callback = new URL(res.headers.location as string);
    expect(`${callback.origin}${callback.pathname}`).toBe(providerEndpoints(t.app).redirectUri);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });
});

describe('cookies', () => {
  it('are HttpOnly, SameSite=Lax, signed, scoped to the realm, and Secure when the public URL is https', async () => {
    const secure = await createTestApp({ publicUrl: 'https://roadpass.example' });
    try {
      const { url } = authorizationRequest(secure.app);
      const res = await secure.app.inject({ url: pathOf(url) });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^\/auth\/realms\/customer\/login-actions\//);
      const cookies = [res.headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string');
      expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual([
        'roadpass_idp_interaction',
        'roadpass_idp_interaction.sig',
        'roadpass_idp_resume',
        'roadpass_idp_resume.sig',
      ]);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/; path=\/auth\/realms\/customer\//);
        expect(cookie).toMatch(/; secure/);
        expect(cookie).toMatch(/; samesite=lax/);
        expect(cookie).toMatch(/; httponly/);
      }
      const { jar } = await signInWithSession(secure.app, DEMO_DE);
      expect(jar.names()).toEqual(
        expect.arrayContaining(['roadpass_idp_session', 'roadpass_idp_session.sig']),
      );
    } finally {
      await secure.close();
    }
  });
});

describe('the sign-in page', () => {
  it('is an accessible English form without inline script or style, with its stylesheet and script under the realm', async () => {
    const { page } = await openLoginPage(t.app);
    const html = page.body;
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Roadpass');
    expect(html).toMatch(/<label for="email">E-mail<\/label>/);
    expect(html).toMatch(/<label for="password">Password<\/label>/);
    expect(html).toMatch(
      /<input id="email" name="email" type="email" autocomplete="username webauthn"[^>]* autofocus>/,
    );
    expect(html).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(html).toMatch(/<button type="submit" class="button">Sign in<\/button>/);
    expect(html).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    // Two external scripts (the "Show password" button, the passkey sign-in), nothing inline.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=")/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);

    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1];
    expect(href).toMatch(new RegExp(`^${REALM}/resources/login\\.css\\?v=`));
    const css = await t.app.inject({ url: href! });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toContain(':focus-visible');
    expect(css.body).not.toMatch(/@import|url\(/);

    const src = /<script src="([^"]+)" defer><\/script>/.exec(html)?.[1];
    expect(src).toMatch(new RegExp(`^${REALM}/resources/login\\.js\\?v=`));
    const script = await t.app.inject({ url: src! });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('has a "Show password" icon button inside the password field, named in the page\'s language', async () => {
    const { page } = await openLoginPage(t.app, { uiLocales: 'hu' });
    const control = /<div class="field-control">(.*?)<\/div>/s.exec(page.body)?.[1] ?? '';
    expect(control).toMatch(/<input id="password"/);
    expect(control).toMatch(
      /<button type="button" class="reveal" data-reveal aria-controls="password" aria-label="Jelszó megjelenítése" data-show="Jelszó megjelenítése" data-hide="Jelszó elrejtése" hidden>/,
    );
  });

  it('speaks German for ui_locales=de', async () => {
    const { page } = await openLoginPage(t.app, { uiLocales: 'de' });
    expect(page.body).toContain('<html lang="de">');
    expect(page.body).toMatch(/<label for="email">E-Mail<\/label>/);
    expect(page.body).toMatch(/<label for="password">Passwort<\/label>/);
    expect(page.body).toMatch(/>Anmelden<\/button>/);
  });

  it('has its own language choice, which keeps the sign-in and posts back in that language', async () => {
    const { page, jar, loginUrl } = await openLoginPage(t.app, { uiLocales: 'de' });
    const nav = /<nav class="languages" aria-label="Sprache">(.*?)<\/nav>/s.exec(page.body)?.[1] ?? '';
    expect([...nav.matchAll(/ lang="(\w\w)"/g)].map((m) => m[1])).toEqual([
      'nl',
      'de',
      'fr',
      'it',
      'es',
      'hu',
      'da',
      'en',
    ]);
    expect(nav).toMatch(/aria-current="true">Deutsch</);
    const magyar = /href="([^"]+)" lang="hu"[^>]*>Magyar</.exec(nav)?.[1]?.replaceAll('&amp;', '&');
    expect(magyar).toBeDefined();

    const hungarian = await browse(t.app, jar, magyar!);
    expect(hungarian.statusCode).toBe(200);
    expect(hungarian.body).toContain('<html lang="hu">');
    expect(hungarian.body).toMatch(/<form method="post" action="[^"]*\?lang=hu"/);
    const action = /<form method="post" action="([^"]+)"/.exec(hungarian.body)![1]!.replaceAll('&amp;', '&');
    const refused = await browse(t.app, jar, action, { email: DEMO_DE.email, password: 'nope' });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('<html lang="hu">');
    expect(loginUrl).toContain('/login-actions/');
  });

  it('follows Accept-Language when the request names no ui_locales', async () => {
    const { page } = await openLoginPage(t.app, {
      headers: { 'accept-language': 'xx, fr-FR;q=0.8, en;q=0.5' },
    });
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toMatch(/>Mot de passe<\/label>/);
  });

  it('gives the same answer for a wrong password and an unknown e-mail, and keeps the e-mail', async () => {
    const wrongPassword = await openLoginPage(t.app);
    const a = await browse(t.app, wrongPassword.jar, wrongPassword.loginUrl, {
      email: DEMO_DE.email,
      password: 'nope',
    });
    const unknown = await openLoginPage(t.app);
    const b = await browse(t.app, unknown.jar, unknown.loginUrl, {
      email: 'nobody@example.com',
      password: 'nope',
    });

    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(a.statusCode);
    expect(alerts(a.body)).toEqual(['The e-mail or password is incorrect.']);
    expect(alerts(b.body)).toEqual(alerts(a.body));
    expect(a.body).toContain(`value="${DEMO_DE.email}"`);
    expect(b.body).toContain('value="nobody@example.com"');
    // The message is tied to both fields, the password field gets the focus.
    expect(a.body).toMatch(/<input id="email"[^>]*aria-invalid="true" aria-describedby="form-error"/);
    expect(a.body).toMatch(
      /<input id="password"[^>]*aria-invalid="true" aria-describedby="form-error" autofocus>/,
    );
  });

  it('names each missing field and puts the focus on the first one', async () => {
    const { jar, loginUrl } = await openLoginPage(t.app, { uiLocales: 'de' });
    const res = await browse(t.app, jar, loginUrl, { email: ' ', password: '' });
    expect(res.statusCode).toBe(400);
    expect(alerts(res.body)).toEqual(['Bitte gib deine E-Mail-Adresse ein.', 'Bitte gib dein Passwort ein.']);
    expect(res.body).toMatch(
      /<input id="email"[^>]*aria-invalid="true" aria-describedby="email-error" autofocus>/,
    );
    expect(res.body).toMatch(/<input id="password"[^>]*aria-describedby="password-error">/);
  });

  it('escapes what was typed', async () => {
    const { jar, loginUrl } = await openLoginPage(t.app);
    const res = await browse(t.app, jar, loginUrl, { email: '"><script>alert(1)</script>', password: 'x' });
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('refuses a form without the interaction cookie with a translated page, not a stack trace', async () => {
    const { loginUrl } = await openLoginPage(t.app);
    const res = await browse(t.app, new CookieJar(), loginUrl, DEMO_DE, { 'accept-language': 'it' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<html lang="it">');
    expect(res.body).toContain('Questa pagina di accesso è scaduta.');
    expect(res.body).not.toMatch(/SessionNotFound|interaction session|at \w+ \(/);
  });
});

describe('authorization requests', () => {
  it('refuses PKCE plain and a missing code challenge', async () => {
    for (const params of [
      { code_challenge_method: 'plain' },
      { code_challenge: undefined, code_challenge_method: undefined },
    ]) {
      const { url } = authorizationRequest(t.app, { params });
      const res = await t.app.inject({ url: pathOf(url) });
      expect(res.statusCode).toBe(303);
      const location = new URL(res.headers.location as string);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a code exchange without the right code_verifier', async () => {
    const { jar, loginUrl } = await openLoginPage(t.app);
    const submitted = await browse(t.app, jar, loginUrl, DEMO_DE);
    const callback = await followToCallback(t.app, jar, submitted.headers.location as string);
    const res = await exchangeCode(t.app, callback.searchParams.get('code')!, 'a'.repeat(43));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an unregistered redirect_uri with its own page, without redirecting', async () => {
    const { url } = authorizationRequest(t.app, {
      params: { redirect_uri: 'https://evil.example/callback' },
    });
    const res = await t.app.inject({ url: pathOf(url), headers: { 'accept-language': 'de' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Etwas ist schiefgelaufen');
    expect(res.body).not.toMatch(/redirect_uri|evil\.example|<script/);
  });

  it('refuses an unknown client', async () => {
    const { url } = authorizationRequest(t.app, { clientId: 'someone-else' });
    const res = await t.app.inject({ url: pathOf(url) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Something went wrong');
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; reusing a rotated one revokes the whole grant', async () => {
    const first = await signIn(t.app, DEMO_DE);
    const second = await refresh(t.app, first.refreshToken);
    if (!second.ok) throw new Error(`refresh failed: ${second.error}`);
    expect(second.tokens.refreshToken).not.toBe(first.refreshToken);
    const claims = decodeJwt(second.tokens.accessToken);
    expect(claims).toMatchObject({
      aud: 'urn:roadpass:customer-api',
      legal_entity: 10,
      locale: 'de-DE',
      sid: decodeJwt(first.accessToken).sid,
    });
    expect(decodeJwt(second.tokens.idToken).email).toBe(DEMO_DE.email);

    const reused = await refresh(t.app, first.refreshToken);
    expect(reused).toMatchObject({ ok: false, status: 400, error: 'invalid_grant' });
    const newest = await refresh(t.app, second.tokens.refreshToken);
    expect(newest).toMatchObject({ ok: false, status: 400, error: 'invalid_grant' });
  });

  it('are refused for an unknown value', async () => {
    expect(await refresh(t.app, 'not-a-token')).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_grant',
    });
  });
});

describe('logout', () => {
  it('with id_token_hint ends the session and goes straight to the registered post_logout_redirect_uri', async () => {
    const { tokens, jar } = await signInWithSession(t.app, DEMO_DE);
    const query = new URLSearchParams({
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
      state: 'after-logout',
    });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${t.config.publicUrl}/?state=after-logout`);

    // The grant is gone, and the next authorization asks for the password again.
    expect(await refresh(t.app, tokens.refreshToken)).toMatchObject({ ok: false, error: 'invalid_grant' });
    const again = await browse(t.app, jar, authorizationRequest(t.app).url);
    expect(again.statusCode).toBe(303);
    expect(pathOf(again.headers.location as string)).toMatch(new RegExp(`^${REALM}/login-actions/`));
  });

  it('without id_token_hint asks first, on a translated page without script', async () => {
    const { jar } = await signInWithSession(t.app, DEMO_DE);
    const query = new URLSearchParams({ client_id: 'portal-client', ui_locales: 'nl' });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="nl">');
    expect(res.body).toContain('Wil je uitloggen bij Roadpass?');
    expect(res.body).toMatch(/<form id="op.logoutForm" method="post" action="[^"]+\/logout\/confirm">/);
    expect(res.body).not.toMatch(/<script/i);

    // Confirming signs the customer out and shows the translated "signed out" page.
    const action = /action="([^"]+)"/.exec(res.body)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(res.body)![1]!;
    const confirmed = await browse(t.app, jar, action, { xsrf, logout: 'yes' });
    expect(confirmed.statusCode).toBe(303);
    // The page after it speaks the signed-out customer's language (German), not the browser's.
    const done = await browse(t.app, jar, confirmed.headers.location as string, undefined, {
      'accept-language': 'nl',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('<html lang="de">');
    expect(done.body).toContain('Du bist abgemeldet');
  });

  it('remembers the signed-out customer’s language: the next sign-in page speaks it, whatever the browser’s (issue 17)', async () => {
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const { tokens, jar } = await signInWithSession(t.app, {
      email: 'demo.hu@example.com',
      password: 'Demo-2026!',
    });
    const query = new URLSearchParams({
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
    });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`, undefined, english);
    expect(res.statusCode).toBe(303);
    const remembered = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('roadpass_lang='));
    expect(remembered).toMatch(/^roadpass_lang=hu; path=\/auth\/realms\/customer;.*samesite=lax; httponly$/);

    // The app sends no ui_locales when nothing but the browser names a language.
    const after = await openLoginPage(t.app, { jar, headers: english });
    expect(after.page.body).toContain('<html lang="hu">');
    expect(after.page.body).toMatch(/<label for="email">E-mail-cím<\/label>/);
    // A language the app names (the address, the customer's choice on this device) still wins.
    expect((await openLoginPage(t.app, { jar, headers: english, uiLocales: 'de' })).page.body).toContain(
      '<html lang="de">',
    );
    // Another browser, where nobody signed in: the browser's language.
    expect((await openLoginPage(t.app, { headers: english })).page.body).toContain('<html lang="en">');
  });

  it('remembers the language the customer has when signing out, not the one they signed in with', async () => {
    const hu = createCustomerRepository(t.db);
    const customer = (await hu.findByEmail('demo.hu@example.com'))!;
    const { tokens, jar } = await signInWithSession(t.app, {
      email: 'demo.hu@example.com',
      password: 'Demo-2026!',
    });
    expect(jar.valueOf('roadpass_lang')).toBe('hu');
    await hu.update(customer.id, { language: 'en_HU' });
    try {
      const query = new URLSearchParams({
        id_token_hint: tokens.idToken,
        post_logout_redirect_uri: `${t.config.publicUrl}/`,
      });
      await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
      expect(jar.valueOf('roadpass_lang')).toBe('en');
      const after = await openLoginPage(t.app, { jar, headers: { 'accept-language': 'hu' } });
      expect(after.page.body).toContain('<html lang="en">');
    } finally {
      await hu.update(customer.id, { language: customer.language });
    }
  });

  it('with id_token_hint but no session left still ends at the post_logout_redirect_uri', async () => {
    const { tokens } = await signInWithSession(t.app, DEMO_DE);
    const jar = new CookieJar(); // e.g. the session already ended in another tab
    const query = new URLSearchParams({
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: `${t.config.publicUrl}/`,
    });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
    // oidc-provider answers with its self-submitting form; its one inline script is allowed by hash.
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
    const action = /<form method="post" action="([^"]+)">/.exec(res.body)![1]!;
    const fields = Object.fromEntries(
      [...res.body.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const submitted = await browse(t.app, jar, action.replace(/&amp;/g, '&'), fields);
    expect(submitted.statusCode).toBe(303);
    expect(submitted.headers.location).toBe(`${t.config.publicUrl}/`);
  });

  it('refuses a post_logout_redirect_uri that is not registered', async () => {
    const { tokens, jar } = await signInWithSession(t.app, DEMO_DE);
    const query = new URLSearchParams({
      id_token_hint: tokens.idToken,
      post_logout_redirect_uri: 'https://evil.example/',
    });
    const res = await browse(t.app, jar, `${providerEndpoints(t.app).logout}?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(await refresh(t.app, tokens.refreshToken)).toMatchObject({ ok: true });
  });
});
