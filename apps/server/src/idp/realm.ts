import { appPaths } from '@roadpass/contracts';

/**
 * Where the embedded identity provider lives: Keycloak's layout for a realm named "customer", so the
 * web app (and any Keycloak client library) talks to it exactly as to a Keycloak realm.
 */
export const REALM_PATH = `${appPaths.identityProviderBase}/realms/${appPaths.realm}`;

/** oidc-provider endpoint paths, relative to the realm. */
export const protocolRoutes = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  end_session: '/protocol/openid-connect/logout',
  userinfo: '/protocol/openid-connect/userinfo',
  jwks: '/protocol/openid-connect/certs',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
} as const;

/** Paths under the realm that the provider (Koa) answers; everything else under it is Fastify's. */
export const providerPathPrefixes = ['/protocol/openid-connect/', '/.well-known/'] as const;

/** The sign-in page of one interaction (the provider redirects here with the interaction cookie). */
export const loginPagePath = (uid: string) => `${REALM_PATH}/login-actions/${encodeURIComponent(uid)}`;
export const LOGIN_PAGE_ROUTE = `${REALM_PATH}/login-actions/:uid`;

export const STYLESHEET_PATH = `${REALM_PATH}/resources/login.css`;
export const SCRIPT_PATH = `${REALM_PATH}/resources/login.js`;
/** The sign-in page's passkey script (SimpleWebAuthn's browser bundle and the page's own code). */
export const PASSKEY_SCRIPT_PATH = `${REALM_PATH}/resources/login-passkey.js`;

export const issuerOf = (publicUrl: string) => `${publicUrl}${REALM_PATH}`;

/**
 * What an OIDC client of the web app reads from the realm's discovery document, as that document
 * says it (identity-provider.test.ts compares them): given in the app's runtime configuration, it
 * spares the app that request.
 */
export function realmClientMetadata(publicUrl: string) {
  const issuer = issuerOf(publicUrl);
  return {
    issuer,
    authorization_endpoint: `${issuer}${protocolRoutes.authorization}`,
    token_endpoint: `${issuer}${protocolRoutes.token}`,
    end_session_endpoint: `${issuer}${protocolRoutes.end_session}`,
    revocation_endpoint: `${issuer}${protocolRoutes.revocation}`,
    userinfo_endpoint: `${issuer}${protocolRoutes.userinfo}`,
  };
}

/** Account recovery pages (docs/product/security.md#forgot-password, #new-device-notice). */
export const forgotPasswordPath = (uid: string) => `${loginPagePath(uid)}/forgot-password`;
export const FORGOT_PASSWORD_ROUTE = `${LOGIN_PAGE_ROUTE}/forgot-password`;
export const passwordResetPath = (token: string) => `${REALM_PATH}/password-reset/${token}`;
export const PASSWORD_RESET_ROUTE = `${REALM_PATH}/password-reset/:token`;
export const notMePath = (token: string) => `${REALM_PATH}/not-me/${token}`;
export const NOT_ME_ROUTE = `${REALM_PATH}/not-me/:token`;
