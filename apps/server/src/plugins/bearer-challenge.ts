/**
 * Reading an `Authorization` header and writing the `WWW-Authenticate` challenge of RFC 6750, shared
 * by the customer API and the internal service endpoints.
 */

/** The realm named in WWW-Authenticate challenges. */
const BEARER_REALM = 'roadpass';

/** Where a client finds the API's protected-resource metadata (RFC 9728 §3), named in challenges. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/api';

export type AuthorizationHeader =
  /** No header, or a scheme other than Bearer: the request carries no bearer credentials. */
  | { kind: 'none' }
  /** The Bearer scheme (in any case, RFC 9110 §11.1) with a token that is not a JWT's shape. */
  | { kind: 'malformed' }
  | { kind: 'bearer'; token: string }
  /** The DPoP scheme (RFC 9449 §7.1; only where asked for) with a token of a JWT's shape. */
  | { kind: 'dpop'; token: string };

const JWT_SHAPE = /^[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]*$/;

/**
 * The token of an Authorization header; the scheme is case-insensitive (RFC 9110 §11.1). `DPoP` is
 * read only when `dpop` is set (the customer API); elsewhere it counts as another scheme.
 */
export function readAuthorization(
  header: string | undefined,
  options: { dpop?: boolean } = {},
): AuthorizationHeader {
  if (!header) return { kind: 'none' };
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const kind = scheme === 'bearer' ? 'bearer' : options.dpop && scheme === 'dpop' ? 'dpop' : undefined;
  if (!kind) return { kind: 'none' };
  const token = header.slice(space + 1).trim();
  return space > 0 && JWT_SHAPE.test(token) ? { kind, token } : { kind: 'malformed' };
}

export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/**
 * An RFC 9449 §7.1 challenge of the DPoP scheme: `algs` the proof may use, and the error
 * (`invalid_dpop_proof`, `use_dpop_nonce`, or an RFC 6750 one for the token itself).
 */
export function dpopChallenge(options: {
  error?: BearerError | 'invalid_dpop_proof' | 'use_dpop_nonce';
  description?: string;
  algs: readonly string[];
}): string {
  const params = [`realm="${BEARER_REALM}"`];
  if (options.error) params.push(`error="${options.error}"`);
  if (options.description) params.push(`error_description="${options.description.replace(/["\\]/g, '')}"`);
  params.push(`algs="${options.algs.join(' ')}"`);
  return `DPoP ${params.join(', ')}`;
}

/**
 * An RFC 6750 §3 challenge: the realm alone for a request without credentials, else with the error,
 * its description and, for insufficient_scope, the scope needed. `resourceMetadata` (RFC 9728 §5.1)
 * tells a client where to find the authorization server.
 */
export function bearerChallenge(
  options: {
    error?: BearerError;
    description?: string;
    scope?: string;
    resourceMetadata?: string;
  } = {},
): string {
  const params = [`realm="${BEARER_REALM}"`];
  if (options.error) params.push(`error="${options.error}"`);
  if (options.description) params.push(`error_description="${options.description.replace(/["\\]/g, '')}"`);
  if (options.scope) params.push(`scope="${options.scope}"`);
  if (options.resourceMetadata) params.push(`resource_metadata="${options.resourceMetadata}"`);
  return `Bearer ${params.join(', ')}`;
}
