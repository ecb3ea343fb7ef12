import type { FastifyInstance } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors as joseErrors,
  type JWTVerifyGetKey,
} from 'jose';
import type { AppConfig } from '../config.js';
import { loadedOnce } from '../lib/loaded-once.js';

/** Signature algorithms accepted on access tokens (the embedded provider signs RS256; Keycloak may differ). */
export const ACCESS_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];

/**
 * Whether a failed verification says something about the token (bad signature, unknown key, expired,
 * wrong issuer: all jose errors) rather than about this server (its key store unreachable). Only the
 * first is an invalid token; the second is the server's failure and must not be answered with 401.
 */
export const isTokenFault = (error: unknown): boolean => error instanceof joseErrors.JOSEError;

export interface AccessTokenKeySource {
  issuer: () => string;
  keys: JWTVerifyGetKey;
}

/**
 * Where access tokens' issuer and keys come from: the embedded provider or an external realm. Shared
 * by the customer API and the internal service endpoints, so both trust exactly the same keys.
 */
export function accessTokenKeySource(app: FastifyInstance, config: AppConfig): AccessTokenKeySource {
  if (config.externalIssuer) {
    const certs = new URL(`${config.externalIssuer}/protocol/openid-connect/certs`);
    // Fetching the realm's keys is a call to another server: a span of its own when traces are on.
    const remote = createRemoteJWKSet(certs, {
      [customFetch]: (url, options) =>
        app.outgoingCall(
          'GET',
          { 'http.request.method': 'GET', 'url.full': url, 'server.address': certs.hostname },
          () => fetch(url, options),
        ),
    });
    return { issuer: () => config.externalIssuer!, keys: remote };
  }
  // Keys are reloaded when a token names an unknown key (another instance may have added one), but
  // at most once a minute: tokens with made-up key ids must not turn every request into a key read.
  const RELOAD_COOLDOWN_MS = 60_000;
  let loadedAt = 0;
  // A failed load (the database down) is not kept: the next token reads the keys again.
  const loader = () =>
    loadedOnce(() => {
      loadedAt = Date.now();
      return app.identityProvider.publicJwks().then(createLocalJWKSet);
    });
  let local = loader();
  return {
    issuer: () => app.identityProvider.issuer,
    keys: async (header, token) => {
      try {
        // Awaited here, so that a key it does not know lands in the catch below.
        return await (
          await local()
        )(header, token);
      } catch (error) {
        // Keys may have been added by another instance since we loaded them: reload once.
        if (!(error instanceof joseErrors.JWKSNoMatchingKey) || Date.now() - loadedAt < RELOAD_COOLDOWN_MS) {
          throw error;
        }
        local = loader();
        return (await local())(header, token);
      }
    },
  };
}
