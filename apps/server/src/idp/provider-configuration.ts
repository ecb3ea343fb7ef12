import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import Provider, {
  errors,
  type Adapter,
  type ClientMetadata,
  type Configuration,
  type JWKS,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { appPaths, languages, LOYALTY_EVENTS_SCOPE } from '@roadpass/contracts';
import type { AppConfig } from '../config.js';
import type { CustomerRepository } from '../modules/customers/index.js';
import { dpopFeature, type DpopSettings } from './dpop-settings.js';
import {
  LAST_LANGUAGE_COOKIE,
  LAST_LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  lastLanguageOf,
  negotiateLanguage,
  type LoginTexts,
} from './login-texts.js';
import { errorPage, loggedOutPage, logoutConfirmPage, type PageContext } from './pages.js';
import type { PrivateJwks } from './provider-keys.js';
import { SIGNING_ALG } from './provider-keys.js';
import { issuerOf, loginPagePath, protocolRoutes, REALM_PATH } from './realm.js';

/** Scopes the portal client may ask for; its grant is given them without a consent screen. */
const FIRST_PARTY_SCOPE = 'openid profile email';
/** Scopes an access token for the customer API may carry (Keycloak puts the OIDC scopes there too). */
const CUSTOMER_API_SCOPE = 'openid profile email';

export interface ProviderDependencies {
  config: AppConfig;
  customers: CustomerRepository;
  adapter: (kind: string) => Adapter;
  signingKeys: PrivateJwks;
  cookieKeys: string[];
  texts: LoginTexts;
  stylesheetUrl: string;
  /** Ends a customer's sessions (by sid) everywhere: their access tokens are refused at once. */
  endSessionOf?: (accountId: string, sids: string[]) => Promise<void>;
  log: FastifyBaseLogger;
  /**
   * Secret of the rental system's service client (client credentials, loyalty events); without one
   * no service client is registered.
   */
  serviceClientSecret?: string | undefined;
  /** DPoP proofs at the token endpoint (dpop-settings.ts); without it DPoP is off. */
  dpop?: DpopSettings | undefined;
}

const epochNow = () => Math.floor(Date.now() / 1000);

/**
 * Claims Keycloak puts in its ID token that oidc-provider does not: `typ`, `acr` ("1", a sign-in with a password), `azp` and `session_state`
 * (Keycloak's name for `sid`), listed under the openid scope (docs/keycloak-clients.md#tokens).
 */
function keycloakIdTokenClaims(
  ctx: KoaContextWithOIDC,
  token: { kind: string; sid?: string | undefined } | undefined,
): Record<string, unknown> {
  const sid =
    token?.sid ?? (ctx.oidc?.client ? ctx.oidc.session?.sidFor(ctx.oidc.client.clientId) : undefined);
  return {
    typ: 'ID',
    acr: '1',
    ...(ctx.oidc?.client ? { azp: ctx.oidc.client.clientId } : {}),
    ...(sid ? { session_state: sid } : {}),
  };
}

/**
 * Claims Keycloak puts in a customer's access token besides the registered ones: `typ`, `acr`,
 * `session_state`, `allowed-origins` and the profile and e-mail claims of the token's scopes.
 */
function keycloakAccessTokenClaims(
  token: { sid?: string | undefined; scope?: string | undefined },
  profile: Record<string, unknown> | undefined,
  appOrigin: string,
): Record<string, unknown> {
  const scopes = new Set((token.scope ?? '').split(' '));
  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((n) => profile?.[n] !== undefined).map((n) => [n, profile![n]]));
  return {
    typ: 'Bearer',
    // Keycloak's level of a sign-in with a password.
    acr: '1',
    ...(token.sid ? { session_state: token.sid } : {}),
    'allowed-origins': [appOrigin],
    ...(scopes.has('profile') ? pick(['name', 'given_name', 'family_name', 'preferred_username']) : {}),
    ...(scopes.has('email') ? pick(['email', 'email_verified']) : {}),
  };
}

/**
 * The oidc-provider instance of the customer realm. Every choice here is one the product needs:
 * one public first-party client with PKCE, JWT access tokens for the customer API (resource
 * indicators with a default resource), rotating refresh tokens, own pages, database storage.
 */
export function createProvider(deps: ProviderDependencies): Provider {
  const { config, customers, texts, log } = deps;
  const audience = config.accessTokenAudience;
  if (!audience) throw new Error('The embedded identity provider needs config.accessTokenAudience');
  const issuer = issuerOf(config.publicUrl);
  const appUrl = `${config.publicUrl}/`;
  const secure = config.publicUrl.startsWith('https:');
  const firstPartyClients = new Set([config.oidcClientId]);
  const appOrigin = new URL(config.publicUrl).origin;
  /** The customer API as an RFC 9728 resource (its metadata names this URL); tokens carry `audience`. */
  const apiResourceUrl = `${config.publicUrl}/api`;

  const pageFor = (ctx: KoaContextWithOIDC): PageContext => {
    const lang = negotiateLanguage(
      ctx.oidc?.params?.ui_locales,
      ctx.get('accept-language') || undefined,
      ctx.cookies.get(LAST_LANGUAGE_COOKIE, { signed: false }),
    );
    return { lang, texts: texts[lang], stylesheetUrl: deps.stylesheetUrl };
  };

  const portalClient: ClientMetadata = {
    client_id: config.oidcClientId,
    client_name: 'Roadpass',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [
      `${config.publicUrl}${appPaths.authCallback}`,
      // Outside production the webview host page signs in like the native apps (docs/native-bridge.md).
      ...(config.env === 'production' ? [] : [`${config.publicUrl}${appPaths.devWebviewHost}`]),
    ],
    post_logout_redirect_uris: [`${config.publicUrl}/`],
    // RFC 9449 §5.2: with DPOP_REQUIRED every token of this client is bound to a key (decision 0044).
    dpop_bound_access_tokens: config.dpopRequired,
    scope: FIRST_PARTY_SCOPE,
    id_token_signed_response_alg: SIGNING_ALG,
  };

  // The rental system's service account: client credentials only, for the internal loyalty API.
  const internalAudience = config.loyaltyAudience;
  const serviceClient: ClientMetadata | undefined = deps.serviceClientSecret
    ? {
        client_id: config.loyaltyClientId,
        client_secret: deps.serviceClientSecret,
        client_name: 'Rental system (loyalty events)',
        application_type: 'web',
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: LOYALTY_EVENTS_SCOPE,
      }
    : undefined;
  const isServiceClient = (clientId: string | undefined) =>
    serviceClient !== undefined && clientId === serviceClient.client_id;

  const longCookie = { httpOnly: true, sameSite: 'lax', secure, signed: true, path: REALM_PATH } as const;

  /** Removes every token of a grant and the grant itself (what the provider's own logout does). */
  async function revokeGrant(provider: Provider, grantId: string): Promise<void> {
    await Promise.all([
      provider.AccessToken.revokeByGrantId(grantId),
      provider.RefreshToken.revokeByGrantId(grantId),
      provider.AuthorizationCode.revokeByGrantId(grantId),
    ]);
    const grant = await provider.Grant.find(grantId);
    await grant?.destroy();
  }

  /**
   * RP-initiated logout without a confirmation page when the request proves it comes from the
   * signed-in customer's app: a valid id_token_hint (signature checked by the provider before this
   * runs) for the same account as the session. Ends the session like the provider's confirm step
   * (grants revoked, session destroyed, cookie cleared) and redirects to the registered
   * post_logout_redirect_uri (with state), or to the "signed out" page.
   */
  async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
    const { session, client, provider } = ctx.oidc;
    const hint = ctx.oidc.entities.IdTokenHint;
    if (
      !session ||
      !client ||
      !hint ||
      typeof hint.payload.sub !== 'string' ||
      hint.payload.sub !== session.accountId
    ) {
      ctx.type = 'html';
      ctx.body = logoutConfirmPage(pageFor(ctx), form, appUrl);
      return;
    }
    const state = (session.state ?? {}) as { postLogoutRedirectUri?: string; state?: string };
    const authorizations = Object.values(session.authorizations ?? {}) as {
      grantId?: string;
      persistsLogout?: boolean;
    }[];
    const account = await customers.findById(session.accountId);
    const sids = authorizations.flatMap((a) =>
      typeof (a as { sid?: unknown }).sid === 'string' ? [(a as { sid: string }).sid] : [],
    );
    if (deps.endSessionOf && sids.length) {
      // One end, as "signed out": the session's grants and tokens go with it, and its access tokens
      // are refused from now on on every instance (before the redirect answers).
      await deps.endSessionOf(session.accountId, sids);
    } else {
      for (const { grantId, persistsLogout } of authorizations) {
        if (grantId && !persistsLogout) await revokeGrant(provider, grantId);
      }
    }
    await session.destroy();
    ctx.cookies.set(provider.cookieName('session'), null, longCookie);
    // The sign-in page the app shows next speaks the language the customer had when signing out
    // (issue 17), whatever the browser's.
    const last = account && lastLanguageOf(account.language);
    if (last) {
      ctx.cookies.set(LAST_LANGUAGE_COOKIE, last, {
        ...longCookie,
        signed: false,
        maxAge: LAST_LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
      });
    }
    let target = ctx.oidc.urlFor('end_session_success');
    if (state.postLogoutRedirectUri) {
      const url = new URL(state.postLogoutRedirectUri);
      if (state.state != null) url.searchParams.set('state', state.state);
      target = url.href;
    }
    provider.emit('end_session.success', ctx);
    ctx.status = 303;
    ctx.redirect(target);
  }

  const configuration: Configuration = {
    adapter: deps.adapter,
    jwks: deps.signingKeys as unknown as JWKS,
    clients: serviceClient ? [portalClient, serviceClient] : [portalClient],
    routes: protocolRoutes,
    responseTypes: ['code'],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    // Listing the service scope makes the provider enforce each client's allowed scopes for it.
    scopes: ['openid', 'offline_access', 'profile', 'email', LOYALTY_EVENTS_SCOPE],
    // Keycloak's authentication level "1": a sign-in with a password (login-routes.ts sets it).
    acrValues: ['1'],
    claims: {
      acr: null,
      sid: null,
      auth_time: null,
      iss: null,
      // Keycloak's ID token carries typ, azp and session_state (= sid) too (docs/keycloak-clients.md).
      openid: ['sub', 'typ', 'azp', 'session_state', 'acr'],
      profile: ['name', 'given_name', 'family_name', 'middle_name', 'preferred_username', 'locale'],
      email: ['email', 'email_verified'],
    },
    // The access token is bound to the customer API, so userinfo refuses it: profile claims travel in
    // the ID token instead.
    conformIdTokenClaims: false,
    discovery: { ui_locales_supported: [...languages] },

    async findAccount(ctx, sub, token) {
      const customer = await customers.findById(sub);
      if (!customer) return undefined;
      // oidc-provider records the session id (sid) on a code only for clients with back-channel
      // logout; the customer API and Keycloak clients expect it in every token. The code or refresh
      // token being exchanged is loaded here before the new tokens copy its sid, so it is set here.
      if (
        token &&
        (token.kind === 'AuthorizationCode' || token.kind === 'RefreshToken') &&
        !token.sid &&
        token.sessionUid
      ) {
        const session = await ctx.oidc.provider.Session.findByUid(token.sessionUid);
        const sid = token.clientId ? session?.sidFor(token.clientId) : undefined;
        if (sid) token.sid = sid;
      }
      return {
        accountId: customer.id,
        legalEntityId: customer.legal_entity_id,
        language: customer.language,
        claims: () => ({
          ...keycloakIdTokenClaims(ctx, token),
          sub: customer.id,
          name: [customer.first_name, customer.middle_name, customer.last_name].filter(Boolean).join(' '),
          given_name: customer.first_name,
          family_name: customer.last_name,
          ...(customer.middle_name ? { middle_name: customer.middle_name } : {}),
          preferred_username: customer.email,
          email: customer.email,
          // The account's address is always a confirmed one: a new address replaces it only through
          // its confirmation link (docs/product/account.md).
          email_verified: true,
          locale: customer.language.replace('_', '-'),
        }),
      };
    },

    /** Keycloak-shaped claims of docs/product/data.md#entities-and-fields in every customer access token. */
    async extraTokenClaims(ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const account = ctx?.oidc?.entities.Account;
      const known = account?.accountId === token.accountId && typeof account.legalEntityId === 'number';
      const customer = known ? undefined : await customers.findById(token.accountId);
      const legalEntity = known ? (account.legalEntityId as number) : customer?.legal_entity_id;
      const language = known ? (account.language as string | undefined) : customer?.language;
      // The sign-in time of the code or refresh token being exchanged: the API's step-up reads it
      // (docs/product/security.md#step-up).
      const entities = ctx?.oidc?.entities;
      const authTime = entities?.AuthorizationCode?.authTime ?? entities?.RefreshToken?.authTime;
      const profile = known
        ? ((await account.claims('userinfo', token.scope ?? '', {}, [])) as Record<string, unknown>)
        : undefined;
      return {
        sid: token.sid,
        ...(typeof authTime === 'number' ? { auth_time: authTime } : {}),
        azp: token.clientId,
        ...keycloakAccessTokenClaims(token, profile, appOrigin),
        realm_access: { roles: [] },
        resource_access: {},
        ...(legalEntity === undefined ? {} : { legal_entity: legalEntity }),
        // The customer's language (BCP 47): the app shows its error screens in it even when the
        // customer's data cannot be loaded (issue 10 #17).
        ...(language ? { locale: language.replace('_', '-') } : {}),
      };
    },

    /** First-party client: the grant is given without a consent screen (and kept current). */
    async loadExistingGrant(ctx) {
      const { client, session, account, provider } = ctx.oidc;
      if (!client || !session || !account) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      let grant = grantId ? await provider.Grant.find(grantId) : undefined;
      if (!firstPartyClients.has(client.clientId)) return grant;
      if (!grant || grant.accountId !== account.accountId) {
        grant = new provider.Grant({ clientId: client.clientId, accountId: account.accountId });
      }
      grant.addOIDCScope(FIRST_PARTY_SCOPE);
      grant.addResourceScope(audience, CUSTOMER_API_SCOPE);
      await grant.save();
      return grant;
    },

    // Refresh tokens for the portal client without offline_access; they still end with the session.
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') &&
      (firstPartyClients.has(client.clientId) || code.scopes.has('offline_access')),
    expiresWithSession: async (_ctx, code) => !code.scopes.has('offline_access'),
    // Every use rotates; presenting an already rotated token revokes the whole grant.
    rotateRefreshToken: true,

    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? config.accessTokenTtlSeconds,
      ClientCredentials: (_ctx, token) =>
        token.resourceServer?.accessTokenTTL ?? config.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: config.accessTokenTtlSeconds,
      Interaction: 60 * 60,
      Session: config.sessionTtlSeconds,
      Grant: config.sessionTtlSeconds,
      // A rotated refresh token never outlives its grant (renewed at each interactive sign-in).
      RefreshToken: (ctx) => {
        const grantExp = ctx?.oidc?.entities.Grant?.exp;
        const grantLeft = typeof grantExp === 'number' ? grantExp - epochNow() : Infinity;
        return Math.max(1, Math.min(config.refreshTokenTtlSeconds, grantLeft));
      },
    },

    cookies: {
      names: {
        session: 'roadpass_idp_session',
        interaction: 'roadpass_idp_interaction',
        resume: 'roadpass_idp_resume',
      },
      long: longCookie,
      // No path here: the provider scopes these to the interaction and resume URLs itself.
      short: { httpOnly: true, sameSite: 'lax', secure, signed: true },
      keys: deps.cookieKeys,
    },

    interactions: {
      url: (_ctx, interaction) => loginPagePath(interaction.uid),
    },

    clientBasedCORS: (_ctx, origin) => origin === new URL(config.publicUrl).origin,

    features: {
      devInteractions: { enabled: false },
      dPoP: dpopFeature(deps.dpop),
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      clientCredentials: { enabled: true },
      // RFC 7662 for confidential clients such as the rental system (decision 0008); a public client
      // (the portal) is refused.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client) => client.clientAuthMethod !== 'none',
      },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource,
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.body = loggedOutPage(pageFor(ctx), appUrl);
        },
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the customer API (the service client:
        // for the internal API) …
        defaultResource: (_ctx, client, oneOf) => {
          if (isServiceClient(client?.clientId)) return internalAudience;
          return oneOf ? (oneOf.includes(audience) ? audience : oneOf) : audience;
        },
        // … also at the token endpoint, even with the openid scope.
        useGrantedResource: () => true,
        // Each API has its clients: customer tokens never reach the internal API and back.
        getResourceServerInfo: (_ctx, resourceIndicator, client) => {
          if (serviceClient && resourceIndicator === internalAudience) {
            if (!isServiceClient(client.clientId)) throw new errors.InvalidTarget();
            return {
              scope: LOYALTY_EVENTS_SCOPE,
              audience: internalAudience,
              accessTokenTTL: config.accessTokenTtlSeconds,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: SIGNING_ALG } },
            };
          }
          if (
            (resourceIndicator !== audience && resourceIndicator !== apiResourceUrl) ||
            isServiceClient(client.clientId)
          ) {
            throw new errors.InvalidTarget();
          }
          return {
            scope: CUSTOMER_API_SCOPE,
            audience,
            accessTokenTTL: config.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },

    renderError(ctx, out, error) {
      const page = pageFor(ctx);
      const expired = error instanceof errors.SessionNotFound;
      log.info({ error: out.error, description: out.error_description }, 'identity provider error page');
      ctx.type = 'html';
      ctx.body = errorPage(page, expired ? page.texts.sessionExpired : page.texts.errorText, appUrl);
    },
  };

  const provider = new Provider(issuer, configuration);

  // The provider's own diagnostics go to the Fastify logger (never tokens or passwords). Koa's 'error'
  // and the provider's error events are not all in its typed event map, hence the plain emitter.
  const events = provider as unknown as EventEmitter;
  events.on('server_error', (_ctx: unknown, err: Error) => log.error({ err }, 'identity provider error'));
  events.on('error', (err: Error) => log.error({ err }, 'identity provider error'));
  for (const event of [
    'authorization.error',
    'grant.error',
    'end_session.error',
    'end_session_confirm.error',
    'revocation.error',
    'userinfo.error',
  ]) {
    events.on(event, (_ctx: unknown, err: { error?: string; error_description?: string }) =>
      log.info(
        { event, error: err.error, description: err.error_description },
        'identity provider refused a request',
      ),
    );
  }
  return provider;
}
