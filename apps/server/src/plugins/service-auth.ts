import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors, type JWTPayload } from 'jose';
import type { AppConfig } from '../config.js';
import { ApiError } from '../lib/api-error.js';
import { accessTokenKeySource, isTokenFault } from './access-token-keys.js';
import { accessTokenVerifier } from './access-token-verifier.js';
import { bearerChallenge, readAuthorization, type BearerError } from './bearer-challenge.js';

export interface ServiceClientIdentity {
  /** The OAuth client the token was issued to (client_id, azp or sub). */
  clientId: string;
  scopes: string[];
  claims: JWTPayload;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a service-token check on internal routes. */
    serviceClient?: ServiceClientIdentity;
  }
}

export interface ServiceTokenCheckOptions {
  config: AppConfig;
  /** The audience (resource) the token must be issued for. */
  audience: string;
  /** The scope the token must carry. */
  scope: string;
  /** False when no service client can exist here (production without a secret): every call is refused. */
  configured: boolean;
  /** What to tell a caller when `configured` is false. */
  notConfiguredMessage: string;
}

const audiencesOf = (payload: JWTPayload): string[] =>
  payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];

/**
 * An onRequest hook for internal routes (marked public, so the customer check skips them) that
 * accepts only a service client's access token: signed by the trusted issuer (embedded provider or
 * external realm, the same keys as the customer API), for `audience`, with `scope`. A missing or
 * invalid token is 401; a valid token for something else, such as a customer's, is 403.
 */
export function serviceTokenCheck(app: FastifyInstance, options: ServiceTokenCheckOptions) {
  const source = accessTokenKeySource(app, options.config);
  const customerAudience = options.config.accessTokenAudience;
  const verify = accessTokenVerifier(source, { requiredClaims: ['exp', 'iat'] });

  return async function checkServiceToken(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    /** A refusal with its RFC 6750 challenge (RFC 9110 §15.5.2 requires one on every 401). */
    const refuse = (status: 401 | 403, message: string, error?: BearerError) => {
      reply.header(
        'www-authenticate',
        bearerChallenge(
          error
            ? {
                error,
                description: message,
                ...(error === 'insufficient_scope' ? { scope: options.scope } : {}),
              }
            : {},
        ),
      );
      return status === 401 ? ApiError.unauthorized(message) : ApiError.forbidden(message);
    };
    if (!options.configured) throw refuse(401, options.notConfiguredMessage);
    const credentials = readAuthorization(request.headers.authorization);
    if (credentials.kind === 'none') {
      throw refuse(401, 'A bearer access token of a service client is required');
    }
    if (credentials.kind === 'malformed') throw refuse(401, 'The access token is malformed', 'invalid_token');
    let payload: JWTPayload;
    try {
      payload = await verify(credentials.token);
    } catch (error) {
      if (!isTokenFault(error)) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        throw refuse(401, 'The access token has expired', 'invalid_token');
      }
      throw refuse(401, 'The access token is not valid for this service', 'invalid_token');
    }
    // A DPoP-bound token (cnf) is never taken as a bearer token (RFC 9449 §7.2); the internal
    // endpoints take no DPoP proofs (decision 0044).
    if (payload.cnf !== undefined)
      throw refuse(401, 'A DPoP-bound token cannot be used here as a bearer token', 'invalid_token');
    const audiences = audiencesOf(payload);
    if (!audiences.includes(options.audience)) {
      const isCustomerToken = customerAudience !== undefined && audiences.includes(customerAudience);
      throw refuse(
        403,
        isCustomerToken
          ? 'A customer access token cannot be used here: this endpoint takes a service client token (OAuth client credentials)'
          : `The access token is not issued for ${options.audience}`,
        'insufficient_scope',
      );
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    if (!scopes.includes(options.scope)) {
      throw refuse(403, `The access token lacks the scope ${options.scope}`, 'insufficient_scope');
    }
    const clientId = [payload.client_id, payload.azp, payload.sub].find((v) => typeof v === 'string');
    request.serviceClient = { clientId: String(clientId ?? ''), scopes, claims: payload };
  };
}
