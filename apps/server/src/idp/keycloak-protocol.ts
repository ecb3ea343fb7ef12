import type { IncomingMessage } from 'node:http';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import { protocolRoutes } from './realm.js';

/**
 * Refresh tokens in Keycloak's shape (docs/keycloak-clients.md#refresh-tokens): keycloak-js decodes
 * the refresh token as a JWT, so the provider's opaque refresh token leaves the token endpoint wrapped
 * in a JWT signed with a realm secret (HS512, like Keycloak's; only this server can check it) and is
 * unwrapped, signature checked, when it comes back to the token, revocation and introspection
 * endpoints. The provider keeps doing everything else: storage, rotation, reuse detection, expiry.
 */

/** The `typ` claim Keycloak gives refresh tokens. */
const REFRESH_TYP = 'Refresh';
const ALG = 'HS512';

export interface RefreshTokenCodec {
  wrap(opaque: string, claims: RefreshTokenClaims): Promise<string>;
  /** The opaque value of a wrapped refresh token, or undefined when it is not one of ours. */
  unwrap(value: string): Promise<string | undefined>;
}

export interface RefreshTokenClaims {
  exp: number;
  iat: number;
  sub?: string | undefined;
  azp?: string | undefined;
  sid?: string | undefined;
  scope?: string | undefined;
}

export function createRefreshTokenCodec(secret: string, issuer: string): RefreshTokenCodec {
  const key = new TextEncoder().encode(secret);
  return {
    async wrap(opaque, claims) {
      return new SignJWT({
        typ: REFRESH_TYP,
        azp: claims.azp,
        sid: claims.sid,
        session_state: claims.sid,
        scope: claims.scope,
        // The provider's own token: what the provider is given back.
        rt: opaque,
      })
        .setProtectedHeader({ alg: ALG, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(issuer)
        .setSubject(claims.sub ?? '')
        .setIssuedAt(claims.iat)
        .setExpirationTime(claims.exp)
        .setJti(crypto.randomUUID())
        .sign(key);
    },
    async unwrap(value) {
      try {
        if (decodeProtectedHeader(value).alg !== ALG) return undefined;
        // The provider decides about expiry (and reuse): an expired wrapper still reaches it.
        const { payload } = await jwtVerify(value, key, {
          algorithms: [ALG],
          issuer,
          audience: issuer,
          clockTolerance: Number.MAX_SAFE_INTEGER,
        });
        return payload.typ === REFRESH_TYP && typeof payload.rt === 'string' ? payload.rt : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Endpoints whose form body names a refresh token, and the parameter that does. */
const TOKEN_PARAMETERS: Record<string, string> = {
  [protocolRoutes.token]: 'refresh_token',
  [protocolRoutes.revocation]: 'token',
  [protocolRoutes.introspection]: 'token',
};

/** A value the provider never issued: a refresh token that is not wrapped is refused like an unknown one. */
const NOT_A_TOKEN = 'not-a-wrapped-refresh-token';

/**
 * Before the provider reads a token, revocation or introspection request (`path` relative to the
 * realm): the wrapped refresh token in its form body is replaced by the provider's opaque value. A
 * bare opaque value (not a JWT) is replaced by one the provider does not know, so a refresh token is
 * only ever taken with its signature. The rewritten body is handed over as `req.body`, which the
 * provider reads when the stream is already consumed.
 */
export async function unwrapRefreshTokenInBody(
  req: IncomingMessage & { body?: string },
  path: string,
  codec: RefreshTokenCodec,
): Promise<void> {
  const parameter = TOKEN_PARAMETERS[path];
  if (!parameter || req.method !== 'POST') return;
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // The provider's own limit; past it the provider answers invalid_request on the empty body.
    if (size > 56 * 1024) return;
    chunks.push(chunk);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const values = form.getAll(parameter);
  if (values.length === 1) {
    const value = values[0]!;
    const opaque = await codec.unwrap(value);
    if (opaque) form.set(parameter, opaque);
    else if (!value.includes('.')) form.set(parameter, NOT_A_TOKEN);
    else if (path === protocolRoutes.introspection) {
      // An access token (a JWT the provider does not store): the provider authenticates the client
      // and answers for an unknown token; keycloakIntrospection answers for the JWT afterwards.
      (req as IntrospectedRequest)[INTROSPECTED_JWT] = value;
      form.set(parameter, NOT_A_TOKEN);
    }
  }
  const body = form.toString();
  req.body = body;
  req.headers['content-length'] = String(Buffer.byteLength(body));
}

/**
 * Keycloak's default client scopes: a Keycloak client's tokens carry the profile and e-mail claims
 * whatever it asks for (keycloak-js asks for `openid` alone). Before the provider reads an
 * authorization request (`path` relative to the realm) of the first-party client, `profile` and
 * `email` are added to an `openid` scope. Only GET requests (what Keycloak clients send).
 */
export function addDefaultScopes(
  req: IncomingMessage & { originalUrl?: string },
  path: string,
  clientId: string,
): void {
  if (path !== protocolRoutes.authorization || req.method !== 'GET') return;
  const [pathname, search = ''] = (req.url ?? '').split('?');
  const query = new URLSearchParams(search);
  if (query.get('client_id') !== clientId || query.getAll('scope').length !== 1) return;
  const scopes = new Set(query.get('scope')!.split(' ').filter(Boolean));
  if (!scopes.has('openid') || (scopes.has('profile') && scopes.has('email'))) return;
  query.set('scope', [...scopes, ...DEFAULT_SCOPES.filter((s) => !scopes.has(s))].join(' '));
  const url = `${pathname}?${query.toString()}`;
  // The provider finds its mount point as the part of originalUrl before url: both change.
  if (req.originalUrl?.endsWith(req.url!)) {
    req.originalUrl = req.originalUrl.slice(0, req.originalUrl.length - req.url!.length) + url;
  }
  req.url = url;
}

/** The scopes Keycloak gives every token of a client by default (besides roles and web origins). */
const DEFAULT_SCOPES = ['profile', 'email'];

const INTROSPECTED_JWT = Symbol('roadpass.introspectedJwt');
type IntrospectedRequest = IncomingMessage & { [INTROSPECTED_JWT]?: string };

/** What introspection says of a JWT access token: its claims while the API would take it, else nothing. */
export type AccessTokenIntrospector = (token: string) => Promise<Record<string, unknown> | undefined>;

/**
 * Introspection (RFC 7662) of access tokens: oidc-provider neither stores JWT access tokens nor
 * introspects structured tokens, so after it has authenticated a confidential client (and answered
 * `active: false` for the placeholder), the JWT's answer is the API's own check: active while its
 * signature, expiry and session hold (docs/keycloak-clients.md).
 */
export function keycloakIntrospection(introspectionPath: string, introspect: AccessTokenIntrospector) {
  return async function keycloakIntrospectionMiddleware(
    ctx: KoaContextWithOIDC,
    next: () => Promise<void>,
  ): Promise<void> {
    await next();
    const token = (ctx.req as IntrospectedRequest)[INTROSPECTED_JWT];
    if (!token || ctx.method !== 'POST' || !ctx.path.endsWith(introspectionPath) || ctx.status !== 200)
      return;
    const client = ctx.oidc?.client;
    // The provider's policy: public clients learn nothing.
    if (!client || client.clientAuthMethod === 'none') return;
    const claims = await introspect(token);
    if (claims) ctx.body = { ...claims, active: true };
  };
}

/**
 * After the token endpoint: the refresh token wrapped, and the fields Keycloak adds to a token
 * response (`refresh_expires_in`, `session_state`, `not-before-policy`).
 */
export function keycloakTokenResponse(codec: RefreshTokenCodec, tokenPath: string) {
  return async function keycloakTokenResponseMiddleware(
    ctx: KoaContextWithOIDC,
    next: () => Promise<void>,
  ): Promise<void> {
    await next();
    if (ctx.method !== 'POST' || !ctx.path.endsWith(tokenPath) || ctx.status !== 200) return;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || typeof body.access_token !== 'string') return;
    const provider: Provider = ctx.oidc.provider;
    const now = Math.floor(Date.now() / 1000);
    let sessionState: string | undefined;
    if (typeof body.refresh_token === 'string') {
      const stored = await provider.RefreshToken.find(body.refresh_token, { ignoreExpiration: true });
      if (stored) {
        sessionState = stored.sid;
        body.refresh_token = await codec.wrap(body.refresh_token, {
          exp: stored.exp ?? now,
          iat: stored.iat ?? now,
          sub: stored.accountId,
          azp: stored.clientId,
          sid: stored.sid,
          scope: stored.scope,
        });
        body.refresh_expires_in = Math.max(0, (stored.exp ?? now) - now);
      }
    } else {
      body.refresh_expires_in = 0;
    }
    body['not-before-policy'] = 0;
    if (sessionState) body.session_state = sessionState;
  };
}

/**
 * Keycloak clients send the page they are on as redirect_uri and post_logout_redirect_uri (keycloak-js
 * by default): the first-party client takes any address of the app's own origin, as a Keycloak client
 * registered with `{origin}/*` does, except the API and the realm. Other clients keep exact matching.
 * (oidc-provider's recipe for wildcard redirect URIs overrides these two methods.)
 */
export function allowAppOriginRedirects(provider: Provider, clientId: string, publicUrl: string): void {
  const origin = new URL(publicUrl).origin;
  const onAppOrigin = (value: string) => {
    try {
      const url = new URL(value);
      return (
        url.origin === origin &&
        !url.hash &&
        !url.username &&
        !url.pathname.startsWith('/api/') &&
        !url.pathname.startsWith('/auth/')
      );
    } catch {
      return false;
    }
  };
  const prototype = provider.Client.prototype as unknown as {
    clientId: string;
    redirectUriAllowed(value: string): boolean;
    postLogoutRedirectUriAllowed(value: string): boolean;
  };
  const exactRedirect = prototype.redirectUriAllowed;
  const exactPostLogout = prototype.postLogoutRedirectUriAllowed;
  prototype.redirectUriAllowed = function (this: typeof prototype, value: string) {
    return exactRedirect.call(this, value) || (this.clientId === clientId && onAppOrigin(value));
  };
  prototype.postLogoutRedirectUriAllowed = function (this: typeof prototype, value: string) {
    return exactPostLogout.call(this, value) || (this.clientId === clientId && onAppOrigin(value));
  };
}
