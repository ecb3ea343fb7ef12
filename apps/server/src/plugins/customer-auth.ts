import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors, type JWTPayload } from 'jose';
import type { AppConfig } from '../config.js';
import { ApiError } from '../lib/api-error.js';
import { accessTokenKeySource, isTokenFault } from './access-token-keys.js';
import { accessTokenVerifier } from './access-token-verifier.js';
import {
  bearerChallenge,
  dpopChallenge,
  PROTECTED_RESOURCE_METADATA_PATH,
  readAuthorization,
} from './bearer-challenge.js';
import { DPOP_ALGORITHMS, type DpopError } from './dpop.js';
import { checkCustomerRateLimit } from './rate-limits.js';

export interface CustomerIdentity {
  /** The customer uuid (token `sub`). */
  customerId: string;
  sessionId: string | undefined;
  legalEntityId: number | undefined;
  claims: JWTPayload;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the customer-auth hook on every non-public /api route. */
    customer: CustomerIdentity | null;
  }
  interface FastifyContextConfig {
    /** Route needs no bearer token (content, public unsubscribe, OpenAPI). */
    public?: boolean;
  }
}

/**
 * Access tokens verified before, kept until their `exp` (checked on every read against this server's
 * clock, as jwtVerify does). Bounded: past `maxEntries` the oldest entry goes.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, JWTPayload>();
  constructor(
    private readonly maxEntries = 10_000,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  get(token: string): JWTPayload | undefined {
    const payload = this.entries.get(token);
    if (!payload) return undefined;
    if (!this.isCurrent(payload)) {
      this.entries.delete(token);
      return undefined;
    }
    return payload;
  }

  /** Whether a verified token's payload has not expired yet. */
  isCurrent(payload: JWTPayload): boolean {
    return typeof payload.exp === 'number' && payload.exp > this.nowSeconds();
  }

  set(token: string, payload: JWTPayload): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, payload);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The last verified token a connection presented, kept on the connection: a keep-alive connection
 * (a browser's, the native app's) sends the same Authorization header on every call, and comparing it
 * with the last one costs less than hashing its kilobyte again for the cache's lookup (about 4 % of a
 * call answered from the read caches).
 */
const LAST_TOKEN = Symbol('roadpass.lastVerifiedToken');
interface RemembersToken {
  [LAST_TOKEN]?: { header: string; payload: JWTPayload };
}

/**
 * Whether the access token's session has ended (docs/product/security.md#sessions): signed out,
 * signed out elsewhere, password changed, a refresh token reused, revoked… Checked in memory on every
 * request (decision 0031); the `sessionState` of the sessions module says which have ended. Otherwise
 * notes the session as active (throttled).
 */
function sessionEnded(
  state: FastifyInstance['sessionState'] | undefined,
  identity: CustomerIdentity,
  fromDatabase = false,
): boolean | Promise<boolean> {
  const sid = identity.sessionId;
  if (sid === undefined || !state) return false;
  const ended = fromDatabase ? state.isEndedNow(sid) : state.isEnded(sid);
  if (ended === true) return true;
  if (ended !== false)
    return ended.then((yes) => {
      if (!yes) state.used(sid);
      return yes;
    });
  state.used(sid);
  return false;
}

const SESSION_ENDED = 'The session of this access token has ended';

/** What a customer access token comes to: the customer's identity, or why it is refused. */
export type CustomerTokenCheck =
  | { ok: true; identity: CustomerIdentity }
  | {
      ok: false;
      error?: 'invalid_token' | DpopError;
      description?: string;
      /** The refusal concerns DPoP: the challenge is of the DPoP scheme (RFC 9449 §7.1). */
      dpop?: { nonce?: string | undefined };
    };

/** What a DPoP proof is checked against: the request it came with (RFC 9449 §4.3). */
export interface DpopContext {
  method: string;
  /** Path and query, as Fastify's `request.url`. */
  url: string;
  /** The request's `DPoP` header. */
  proof: string | string[] | undefined;
}

export interface CustomerTokenCheckOptions {
  /**
   * The session is looked up in the database rather than in what this instance has heard of ended
   * sessions (`SessionState.isEndedNow`): for the realm's UserInfo and account endpoints, which
   * clients call right after a sign-out made on any instance.
   */
  sessionFromDatabase?: boolean;
}

/** The key a DPoP-bound token is bound to (`cnf.jkt`, RFC 9449 §6.1), if it is bound. */
function boundKeyOf(payload: JWTPayload): string | undefined {
  const cnf = payload.cnf as { jkt?: unknown } | undefined;
  return cnf && typeof cnf === 'object' && typeof cnf.jkt === 'string' ? cnf.jkt : undefined;
}

const BOUND_AS_BEARER =
  'The access token is bound to a DPoP key: send it with the DPoP scheme and a proof of that key';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The one check of a customer access token (the Authorization header): signature, issuer,
     * audience, expiry and the session (decision 0031). The API's hook and the realm's UserInfo and
     * account endpoints use it.
     */
    checkCustomerToken(
      header: string | undefined,
      dpop?: DpopContext,
      options?: CustomerTokenCheckOptions,
    ): Promise<CustomerTokenCheck>;
    /**
     * Token introspection (RFC 7662) for a confidential client: the identity of an access token that
     * is valid and whose session lives as the database says now, bearer or DPoP-bound alike (no
     * proof: the caller is not the token's holder), with the key it is bound to; undefined otherwise.
     */
    introspectCustomerToken(token: string): Promise<{ identity: CustomerIdentity; jkt?: string } | undefined>;
  }
}

/**
 * The headers of a refusal of a customer token: the challenge of the scheme concerned (RFC 6750 §3,
 * RFC 9449 §7.1) and a DPoP nonce when one is asked for. A request without credentials gets both
 * challenges, Bearer and DPoP, since the API takes either (RFC 9449 §7.1).
 */
export function customerTokenChallenge(
  result: CustomerTokenCheck & { ok: false },
  resourceMetadata?: string,
): { 'www-authenticate': string | string[]; 'dpop-nonce'?: string } {
  const { error, description } = result;
  if (result.dpop) {
    const challenge = dpopChallenge({ error, description, algs: DPOP_ALGORITHMS });
    return result.dpop.nonce
      ? { 'www-authenticate': challenge, 'dpop-nonce': result.dpop.nonce }
      : { 'www-authenticate': challenge };
  }
  const bearer = bearerChallenge({
    error: error as 'invalid_token' | undefined,
    description,
    resourceMetadata,
  });
  if (error) return { 'www-authenticate': bearer };
  return { 'www-authenticate': [bearer, dpopChallenge({ algs: DPOP_ALGORITHMS })] };
}

/**
 * Every /api route requires a valid bearer JWT from the trusted issuer (401 with a JSON error
 * otherwise; /api never redirects to a login page), unless the route is marked public.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const source = accessTokenKeySource(app, config);
    app.decorateRequest('customer', null);
    const cache = new VerifiedTokenCache();
    const resourceMetadata = `${config.publicUrl}${PROTECTED_RESOURCE_METADATA_PATH}`;
    // Registered before this plugin (app.ts); absent in a bare test app.
    const sessionState = app.hasDecorator('sessionState') ? app.sessionState : undefined;
    // DPoP proofs (plugins/dpop.ts); absent in a bare test app, where a DPoP token is refused.
    const dpopVerifier = app.hasDecorator('dpop') ? app.dpop : undefined;

    const verify = accessTokenVerifier(source, {
      audience: config.accessTokenAudience,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    /**
     * The payload of a verified token. RS256 verification was about a quarter of a login-status
     * request's CPU: a token already verified is taken from the cache until it expires.
     */
    async function verified(token: string): Promise<JWTPayload> {
      const known = cache.get(token);
      if (known) return known;
      const payload = await verify(token);
      cache.set(token, payload);
      return payload;
    }

    /** The identity of a verified token, built once per token (it never changes; nobody modifies it). */
    const identities = new WeakMap<JWTPayload, CustomerIdentity>();
    function identityOf(payload: JWTPayload): CustomerIdentity {
      let identity = identities.get(payload);
      if (!identity) {
        const legalEntity = payload.legal_entity;
        identity = Object.freeze({
          customerId: payload.sub!,
          sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
          legalEntityId: typeof legalEntity === 'number' ? legalEntity : Number(legalEntity) || undefined,
          claims: payload,
        });
        identities.set(payload, identity);
      }
      return identity;
    }

    async function checkCustomerToken(
      header: string | undefined,
      dpop?: DpopContext,
      options: CustomerTokenCheckOptions = {},
    ): Promise<CustomerTokenCheck> {
      const credentials = readAuthorization(header, { dpop: true });
      // RFC 6750 §3: a request without bearer credentials gets the challenge alone; a Bearer header
      // whose token is not even a JWT's shape is an invalid token.
      if (credentials.kind === 'none') return { ok: false };
      if (credentials.kind === 'malformed')
        return { ok: false, error: 'invalid_token', description: 'The access token is malformed' };
      let payload: JWTPayload;
      try {
        payload = await verified(credentials.token);
      } catch (error) {
        if (!isTokenFault(error)) throw error;
        const description =
          error instanceof joseErrors.JWTExpired
            ? 'The access token has expired'
            : 'The access token is not valid for this service';
        return {
          ok: false,
          error: 'invalid_token',
          description,
          ...(credentials.kind === 'dpop' ? { dpop: {} } : {}),
        };
      }
      // DPoP (RFC 9449 §7): a bound token only with a proof of its key, never as a bearer token.
      const jkt = boundKeyOf(payload);
      if (credentials.kind === 'bearer' && jkt !== undefined)
        return { ok: false, error: 'invalid_token', description: BOUND_AS_BEARER, dpop: {} };
      if (credentials.kind === 'dpop') {
        if (jkt === undefined)
          return {
            ok: false,
            error: 'invalid_token',
            description: 'The access token is not DPoP-bound',
            dpop: {},
          };
        if (!dpop || !dpopVerifier)
          return {
            ok: false,
            error: 'invalid_dpop_proof',
            description: 'No DPoP proof can be checked here',
            dpop: {},
          };
        const proof = await dpopVerifier.verify({ ...dpop, accessToken: credentials.token, jkt });
        if (!proof.ok)
          return {
            ok: false,
            error: proof.error,
            description: proof.description,
            dpop: { nonce: proof.nonce },
          };
      }
      const identity = identityOf(payload);
      if (await sessionEnded(sessionState, identity, options.sessionFromDatabase))
        return { ok: false, error: 'invalid_token', description: SESSION_ENDED };
      return { ok: true, identity };
    }
    app.decorate('checkCustomerToken', checkCustomerToken);

    app.decorate('introspectCustomerToken', async (token: string) => {
      if (readAuthorization(`Bearer ${token}`).kind !== 'bearer') return undefined;
      let payload: JWTPayload;
      try {
        payload = await verified(token);
      } catch {
        return undefined;
      }
      const identity = identityOf(payload);
      // The caller (a resource server) asks to learn of an end, made on any instance: the database says.
      if (await sessionEnded(sessionState, identity, true)) return undefined;
      const jkt = boundKeyOf(payload);
      return jkt === undefined ? { identity } : { identity, jkt };
    });

    const refuseCheck = (reply: FastifyReply, result: CustomerTokenCheck & { ok: false }): never => {
      reply.headers(customerTokenChallenge(result, resourceMetadata));
      throw ApiError.unauthorized(result.description);
    };
    const refuse = (reply: FastifyReply, error?: 'invalid_token', description?: string): never =>
      refuseCheck(reply, { ok: false, error, description });

    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/') || request.routeOptions.config.public) return;
      // A customer's data (and the refusal to show it) is never kept by a browser or a proxy cache.
      reply.header('cache-control', 'no-store');
      const header = request.headers.authorization;
      // A token verified before (only well-formed ones ever are) skips the format check too.
      const connection = request.raw.socket as unknown as RemembersToken;
      const last = connection[LAST_TOKEN];
      let known = last && last.header === header && cache.isCurrent(last.payload) ? last.payload : undefined;
      if (!known && header?.startsWith('Bearer ')) {
        known = cache.get(header.slice(7));
        if (known) connection[LAST_TOKEN] = { header, payload: known };
      }
      // A DPoP-bound token needs its proof checked on every request (and is never a bearer token).
      if (known && boundKeyOf(known) !== undefined) known = undefined;
      if (known) {
        request.customer = identityOf(known);
        if (await sessionEnded(sessionState, request.customer)) refuse(reply, 'invalid_token', SESSION_ENDED);
        return checkCustomerRateLimit(app.customerRateLimit, request, reply);
      }
      const result = await checkCustomerToken(header, {
        method: request.method,
        url: request.url,
        proof: request.headers.dpop,
      });
      if (!result.ok) return refuseCheck(reply, result);
      connection[LAST_TOKEN] = { header: header!, payload: result.identity.claims };
      request.customer = result.identity;
      return checkCustomerRateLimit(app.customerRateLimit, request, reply);
    });
  },
  { name: 'customer-auth', dependencies: ['errors', 'rate-limits'] },
);
