import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { apiPaths, CSRF_HEADER } from '@roadpass/contracts';

/**
 * Test helper: signs a customer in through the embedded identity provider exactly as a browser
 * would (authorization code flow with PKCE S256), using only `app.inject`, with cookies carried by
 * hand from one response to the next request.
 */

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  expiresIn: number;
}

export interface Credentials {
  email: string;
  password: string;
}

export interface SignInOptions {
  /** ui_locales of the authorization request, e.g. 'de'. */
  uiLocales?: string;
  clientId?: string;
}

export type InjectResponse = Awaited<ReturnType<FastifyInstance['inject']>>;

/** Just enough of a browser cookie store: name, value and path; expired cookies are dropped. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: InjectResponse): void {
    const header = response.headers['set-cookie'];
    const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attrValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attrValue || '/';
        if (key.toLowerCase() === 'expires' && Date.parse(attrValue) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attrValue) <= 0) expired = true;
      }
      const key = `${name}|${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path });
    }
  }

  /** The Cookie header a browser would send to this path. */
  headerFor(url: string): string | undefined {
    const path = new URL(url, 'http://localhost').pathname;
    const matching = [...this.cookies.values()].filter(
      (c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`),
    );
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }

  /** The value of a cookie, whatever its path. */
  valueOf(name: string): string | undefined {
    return [...this.cookies.values()].find((c) => c.name === name)?.value;
  }

  /** Puts a cookie in the jar, as if a response had set it. */
  set(name: string, value: string, path = '/'): void {
    this.cookies.set(`${name}|${path}`, { name, value, path });
  }
}

/** Path and query of an absolute or relative URL, as app.inject wants it. */
export const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

/** Public origin and endpoints of the embedded provider, from its issuer. */
export function providerEndpoints(app: FastifyInstance) {
  const issuer = app.identityProvider.issuer;
  const publicUrl = issuer.replace(/\/auth\/realms\/customer$/, '');
  return {
    issuer,
    publicUrl,
    authorization: `${issuer}/protocol/openid-connect/auth`,
    token: `${issuer}/protocol/openid-connect/token`,
    logout: `${issuer}/protocol/openid-connect/logout`,
    redirectUri: `${publicUrl}/login/callback`,
  };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** A GET (or a form POST) with the jar's cookies; stores the cookies of the response. */
export async function browse(
  app: FastifyInstance,
  jar: CookieJar,
  url: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<InjectResponse> {
  const cookie = jar.headerFor(url);
  const response = await app.inject({
    method: form ? 'POST' : 'GET',
    url: pathOf(url),
    headers: {
      ...headers,
      ...(cookie ? { cookie } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
  jar.store(response);
  return response;
}

export interface SignInSession {
  tokens: TokenSet;
  /** The browser's cookies afterwards (the provider's session cookie among them). */
  jar: CookieJar;
}

export interface AuthorizationOptions extends SignInOptions {
  /** Parameters to add to (or, with undefined, remove from) the authorization request. */
  params?: Record<string, string | undefined>;
  /** Extra request headers, e.g. accept-language. */
  headers?: Record<string, string>;
  /** The browser's cookies so far (a device that signed in before); a new, empty jar by default. */
  jar?: CookieJar;
}

/** The query of a valid authorization request of the portal client, with a fresh PKCE pair and state. */
export function authorizationRequest(app: FastifyInstance, opts: AuthorizationOptions = {}) {
  const endpoints = providerEndpoints(app);
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(12).toString('base64url');
  const params: Record<string, string | undefined> = {
    client_id: opts.clientId ?? 'portal-client',
    redirect_uri: endpoints.redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(opts.uiLocales ? { ui_locales: opts.uiLocales } : {}),
    ...opts.params,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { url: `${endpoints.authorization}?${query}`, verifier, state };
}

export interface LoginPage {
  jar: CookieJar;
  /** Absolute URL of the sign-in page (also where the form posts to). */
  loginUrl: string;
  page: InjectResponse;
  verifier: string;
  state: string;
}

/** Starts an authorization request and follows it to the sign-in page. */
export async function openLoginPage(
  app: FastifyInstance,
  opts: AuthorizationOptions = {},
): Promise<LoginPage> {
  const jar = opts.jar ?? new CookieJar();
  const { url, verifier, state } = authorizationRequest(app, opts);
  const authorization = await browse(app, jar, url, undefined, opts.headers);
  if (authorization.statusCode !== 303) {
    throw new Error(
      `authorization request answered ${authorization.statusCode}: ${authorization.body.slice(0, 300)}`,
    );
  }
  const loginUrl = authorization.headers.location as string;
  const page = await browse(app, jar, loginUrl, undefined, opts.headers);
  if (page.statusCode !== 200) throw new Error(`login page answered ${page.statusCode}`);
  return { jar, loginUrl, page, verifier, state };
}

/** Follows redirects from `location` until the portal's callback; returns the callback URL. */
export async function followToCallback(app: FastifyInstance, jar: CookieJar, location: string): Promise<URL> {
  const { redirectUri } = providerEndpoints(app);
  for (let hop = 0; hop < 5 && !location.startsWith(redirectUri); hop += 1) {
    const next = await browse(app, jar, location);
    if (next.statusCode !== 303 && next.statusCode !== 302) {
      throw new Error(
        `expected a redirect from ${pathOf(location)}, got ${next.statusCode}: ${next.body.slice(0, 300)}`,
      );
    }
    location = next.headers.location as string;
  }
  return new URL(location);
}

/** Exchanges an authorization code at the token endpoint. */
export async function exchangeCode(
  app: FastifyInstance,
  code: string,
  verifier: string | undefined,
  clientId = 'portal-client',
): Promise<InjectResponse> {
  const endpoints = providerEndpoints(app);
  return app.inject({
    method: 'POST',
    url: pathOf(endpoints.token),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: endpoints.redirectUri,
      client_id: clientId,
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
    }).toString(),
  });
}

/** The whole flow; also returns the cookie jar (for logout or a second authorization). */
export async function signInWithSession(
  app: FastifyInstance,
  creds: Credentials,
  opts: SignInOptions = {},
): Promise<SignInSession> {
  const { jar, loginUrl, verifier, state } = await openLoginPage(app, opts);
  const submitted = await browse(app, jar, loginUrl, { email: creds.email, password: creds.password });
  if (submitted.statusCode !== 303) {
    const alert = /role="alert"[^>]*>([^<]*)</.exec(submitted.body)?.[1];
    throw new Error(`sign-in refused (${submitted.statusCode}): ${alert ?? submitted.body.slice(0, 200)}`);
  }

  // Back to the provider (resume), which redirects to the app's callback with the code.
  const callback = await followToCallback(app, jar, submitted.headers.location as string);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) {
    throw new Error(`no code for this request in the callback: ${callback.search}`);
  }
  const token = await exchangeCode(app, code, verifier, opts.clientId);
  if (token.statusCode !== 200) throw new Error(`token request answered ${token.statusCode}: ${token.body}`);
  return { tokens: tokenSetOf(token.json()), jar };
}

/** Signs in and returns the token set of the portal client. */
export async function signIn(
  app: FastifyInstance,
  creds: Credentials,
  opts: SignInOptions = {},
): Promise<TokenSet> {
  return (await signInWithSession(app, creds, opts)).tokens;
}

function tokenSetOf(body: Record<string, unknown>): TokenSet {
  return {
    accessToken: String(body.access_token),
    refreshToken: String(body.refresh_token),
    idToken: String(body.id_token),
    expiresIn: Number(body.expires_in),
  };
}

export type RefreshResult =
  | { ok: true; tokens: TokenSet }
  | { ok: false; status: number; error: string; errorDescription: string | undefined };

/** The refresh_token grant of the portal client: a new token set, or the error response. */
export async function refresh(
  app: FastifyInstance,
  refreshToken: string,
  clientId = 'portal-client',
): Promise<RefreshResult> {
  const response = await app.inject({
    method: 'POST',
    url: pathOf(providerEndpoints(app).token),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    }).toString(),
  });
  const body = response.json<Record<string, unknown>>();
  if (response.statusCode === 200) return { ok: true, tokens: tokenSetOf(body) };
  return {
    ok: false,
    status: response.statusCode,
    error: String(body.error),
    errorDescription: typeof body.error_description === 'string' ? body.error_description : undefined,
  };
}

/** A signed-in customer as an API caller: their ids and the headers every call of theirs carries. */
export interface Caller {
  uuid: string;
  legalEntityId: number;
  headers: Record<string, string>;
}

/** Signs a demo customer in and reads their ids and CSRF token from the login status. */
export async function signedInCaller(app: FastifyInstance, email: string, password: string): Promise<Caller> {
  const { accessToken } = await signIn(app, { email, password });
  const status = await app.inject({
    url: apiPaths.loginStatus,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const { user } = status.json<{ user: { uuid: string; legalEntityId: number } }>();
  return {
    uuid: user.uuid,
    legalEntityId: user.legalEntityId,
    headers: {
      authorization: `Bearer ${accessToken}`,
      [CSRF_HEADER]: status.headers[CSRF_HEADER.toLowerCase()] as string,
    },
  };
}
