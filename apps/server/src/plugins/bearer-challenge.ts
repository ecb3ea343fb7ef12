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
  | { kind: 'bearer'; token: string };

const JWT_SHAPE = /^[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]+\.[A-Za-z0-9\-_=]*$/;

/** The bearer token of an Authorization header; the scheme is case-insensitive (RFC 9110 §11.1). */
export function readAuthorization(header: string | undefined): AuthorizationHeader {
  if (!header) return { kind: 'none' };
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'none' };
  const token = header.slice(space + 1).trim();
  return space > 0 && JWT_SHAPE.test(token) ? { kind: 'bearer', token } : { kind: 'malformed' };
}

export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

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
