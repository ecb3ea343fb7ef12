import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { AppConfig } from '../config.js';
import { ApiError } from '../lib/api-error.js';

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

const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/** Where the access tokens' issuer and keys come from: the embedded provider or an external realm. */
function keySource(app: FastifyInstance, config: AppConfig): { issuer: () => string; keys: JWTVerifyGetKey } {
  if (config.externalIssuer) {
    const remote = createRemoteJWKSet(new URL(`${config.externalIssuer}/protocol/openid-connect/certs`));
    return { issuer: () => config.externalIssuer!, keys: remote };
  }
  // Keys are reloaded when a token names an unknown key (another instance may have added one), but
  // at most once a minute: tokens with made-up key ids must not turn every request into a key read.
  const RELOAD_COOLDOWN_MS = 60_000;
  let local: Promise<JWTVerifyGetKey> | undefined;
  let loadedAt = 0;
  const loadLocal = async () => {
    loadedAt = Date.now();
    return createLocalJWKSet(await app.identityProvider.publicJwks());
  };
  return {
    issuer: () => app.identityProvider.issuer,
    keys: async (header, token) => {
      local ??= loadLocal();
      try {
        return await (
          await local
        )(header, token);
      } catch (error) {
        // Keys may have been added by another instance since we loaded them: reload once.
        if (!(error instanceof joseErrors.JWKSNoMatchingKey) || Date.now() - loadedAt < RELOAD_COOLDOWN_MS) {
          throw error;
        }
        local = loadLocal();
        return (await local)(header, token);
      }
    },
  };
}

/**
 * Every /api route requires a valid bearer JWT from the trusted issuer (401 with a JSON error
 * otherwise; /api never redirects to a login page), unless the route is marked public.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const source = keySource(app, config);
    app.decorateRequest('customer', null);

    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/') || request.routeOptions.config.public) return;
      const header = request.headers.authorization;
      const match = header && /^Bearer ([A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]*)$/.exec(header);
      if (!match) throw ApiError.unauthorized();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(match[1]!, source.keys, {
          issuer: source.issuer(),
          audience: config.accessTokenAudience,
          algorithms: ALGORITHMS,
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired)
          throw ApiError.unauthorized('The access token has expired');
        throw ApiError.unauthorized('The access token is not valid for this service');
      }
      const legalEntity = payload.legal_entity;
      request.customer = {
        customerId: payload.sub!,
        sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
        legalEntityId: typeof legalEntity === 'number' ? legalEntity : Number(legalEntity) || undefined,
        claims: payload,
      };
    });
  },
  { name: 'customer-auth', dependencies: ['errors'] },
);
