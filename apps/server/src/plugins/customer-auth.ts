import fp from 'fastify-plugin';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AppConfig } from '../config.js';
import { ApiError } from '../lib/api-error.js';
import { ACCESS_TOKEN_ALGORITHMS, accessTokenKeySource } from './access-token-keys.js';

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
 * Every /api route requires a valid bearer JWT from the trusted issuer (401 with a JSON error
 * otherwise; /api never redirects to a login page), unless the route is marked public.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const source = accessTokenKeySource(app, config);
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
          algorithms: ACCESS_TOKEN_ALGORITHMS,
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
