import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import middie from '@fastify/middie';
import type { JWK } from 'jose';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { MetaDataList } from '@roadpass/contracts';
import type { CustomerRepository } from '../modules/customers/index.js';
import { ruleText } from '../modules/account/index.js';
import type { TranslationSet } from '../modules/content/index.js';
import { messageLanguage, type MessageSender, type MessageTexts } from '../modules/messages/index.js';
import { createRecoveryService, purgeSpentRecoveryLinks } from '../modules/recovery/index.js';
import { createPasskeyService } from '../modules/passkeys/index.js';
import { getOrCreateSecret, randomSecret } from '../lib/app-secrets.js';
import { dpopNonceSecret } from '../plugins/dpop.js';
import { serviceClientSecret, startExpiryTimer } from '../modules/loyalty/index.js';
import {
  addDefaultScopes,
  allowAppOriginRedirects,
  createRefreshTokenCodec,
  keycloakIntrospection,
  keycloakTokenResponse,
  unwrapRefreshTokenInBody,
} from './keycloak-protocol.js';
import { registerKeycloakRoutes } from './keycloak-routes.js';
import { sessionStatusCookie, sessionStatusPathList } from './keycloak-session-status.js';
import { recordSecurityEvent } from '../modules/security-activity/index.js';
import { endSessions, recordSessionDevice } from '../modules/sessions/index.js';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../db/database-unavailable.js';
import { createKyselyAdapterFactory } from './kysely-adapter.js';
import { loginCssVersion } from './login-css.js';
import { registerLoginRoutes } from './login-routes.js';
import { loadLoginTexts } from './login-texts.js';
import { createDeviceCookies, createLoginThrottle } from './login-throttle.js';
import { createProvider } from './provider-configuration.js';
import {
  DEVICE_COOKIE_KEY_SECRET,
  loadCookieKeys,
  loadPublicJwks,
  loadSigningKeys,
} from './provider-keys.js';
import {
  issuerOf,
  notMePath,
  passwordResetPath,
  protocolRoutes,
  providerPathPrefixes,
  REALM_PATH,
  STYLESHEET_PATH,
} from './realm.js';

/** Secret of the refresh tokens' JWT wrapping (HS512, Keycloak's shape), shared by every instance. */
const REFRESH_TOKEN_KEY_SECRET = 'oidc-refresh-token-key';

/** How long a browser may reuse the discovery document (it changes only with a deployment). */
const DISCOVERY_MAX_AGE_SECONDS = 300;

export interface IdentityProvider {
  /** The issuer of the realm: `${publicUrl}/auth/realms/customer`. */
  issuer: string;
  /** The public signing keys, read from the database (so keys of other instances are seen too). */
  publicJwks(): Promise<{ keys: JWK[] }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    identityProvider: IdentityProvider;
  }
}

export interface IdentityProviderOptions {
  config: AppConfig;
  db: Db;
  customers: CustomerRepository;
  /** For the recovery e-mails (docs/product/security.md#forgot-password, #new-device-notice). */
  messages: MessageSender;
  messageTexts: MessageTexts;
  /** The texts of broken rules (content/translations), as the app shows them. */
  translations: TranslationSet;
  /** The served password rules (content/account-rules). */
  passwordRules: MetaDataList;
}

/**
 * The embedded OpenID Connect provider of the customer realm (oidc-provider, mounted with middie at
 * /auth/realms/customer with Keycloak's endpoint paths) plus its sign-in pages. Everything it keeps
 * (keys, cookie keys, sessions, grants, tokens, failed attempts) lives in the database, so a restart
 * signs nobody out and any number of instances can run side by side.
 */
export default fp<IdentityProviderOptions>(
  async (app, { config, db, customers, messages, messageTexts, translations, passwordRules }) => {
    const texts = await loadLoginTexts(config.contentDir);
    const [signingKeys, cookieKeys, loyaltyClientSecret, refreshTokenKey, nonceSecret] = await Promise.all([
      loadSigningKeys(db),
      loadCookieKeys(db),
      serviceClientSecret(db, config),
      getOrCreateSecret(db, REFRESH_TOKEN_KEY_SECRET, () => randomSecret(64)),
      dpopNonceSecret(db),
    ]);
    const stylesheetUrl = `${STYLESHEET_PATH}?v=${loginCssVersion}`;
    const log = app.log.child({ module: 'identity-provider' });

    /**
     * The provider ended tokens or a session itself (refresh-token or code reuse, revocation, its
     * logout): those sessions end everywhere with their access tokens (docs/product/security.md#sessions).
     */
    const endRevoked = async (revoked: { sid: string; accountId: string }[], reason: string) => {
      for (const { sid, accountId } of revoked)
        await endSessions(db, accountId, { only: sid }, reason, { ownedBy: 'caller-knows' });
    };
    const provider = createProvider({
      config,
      customers,
      adapter: createKyselyAdapterFactory(db, {
        onCleanupError: (err) => log.warn({ err }, 'could not delete expired identity provider rows'),
        onTokensRevoked: endRevoked,
      }),
      endSessionOf: (accountId, sids) =>
        endRevoked(
          sids.map((sid) => ({ sid, accountId })),
          'signed_out',
        ),
      signingKeys,
      cookieKeys,
      serviceClientSecret: loyaltyClientSecret,
      dpop: { nonceSecret, requireNonce: config.dpopRequireNonce },
      texts,
      stylesheetUrl,
      log,
    });

    // The provider builds its URLs and decides on secure cookies from the request's origin. It must
    // see the configured public origin, whatever Host the request came with, and never a forwarded
    // header a client made up: these two headers are overwritten from the configuration on every
    // request it handles, and the provider is told to read them (the only reason for `proxy`).
    const publicUrl = new URL(config.publicUrl);
    const canonicalise = (req: IncomingMessage) => {
      req.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = publicUrl.host;
    };
    provider.proxy = true;

    // What a Keycloak client expects of the realm (docs/keycloak-clients.md).
    const refreshTokens = createRefreshTokenCodec(refreshTokenKey, issuerOf(config.publicUrl));
    provider.use(keycloakTokenResponse(refreshTokens, protocolRoutes.token));
    provider.use(
      keycloakIntrospection(protocolRoutes.introspection, async (token) => {
        const result = await app.introspectCustomerToken(token);
        if (!result) return undefined;
        const { claims } = result.identity;
        return {
          // RFC 9449 §6.2: a DPoP-bound token is introspected as such, with the key it is bound to.
          ...(result.jkt ? { token_type: 'DPoP', cnf: { jkt: result.jkt } } : { token_type: 'Bearer' }),
          sub: claims.sub,
          client_id: claims.client_id ?? claims.azp,
          scope: claims.scope,
          exp: claims.exp,
          iat: claims.iat,
          iss: claims.iss,
          aud: claims.aud,
          jti: claims.jti,
          sid: claims.sid,
          username: claims.preferred_username,
        };
      }),
    );
    provider.use(
      sessionStatusCookie({
        secure: config.publicUrl.startsWith('https:'),
        maxAgeSeconds: config.sessionTtlSeconds,
      }),
    );
    allowAppOriginRedirects(provider, config.oidcClientId, config.publicUrl);

    // A session's device: recorded when its first tokens are issued, active again at each renewal.
    // `ip` is Fastify's (trustProxy applies), set on the raw request by middie.
    // The session runs out with its grant (renewed only by an interactive sign-in; refresh tokens never
    // outlive it), so the entry expires then too, not later at each renewal: the list shows only
    // sessions that can still be used, and run-out ones become ended (endExpiredSessions).
    const sessionExpiry = (grantExp: unknown) =>
      new Date(typeof grantExp === 'number' ? grantExp * 1000 : Date.now() + config.sessionTtlSeconds * 1000);
    // The token response waits for the entry: a sessions list read right after a sign-in shows the
    // session (the event cannot be awaited, so the middleware below awaits the write it started). Like
    // every provider.use, it must come before provider.callback(), which composes the middleware it has
    // then: registered after it (as until 29 Nov), it never ran, and a list read at once could miss the
    // session (sessions.test.ts failed so, twice, in whole suites on PostgreSQL).
    // A sign-in whose entry could not be written even on its third try answers 503 instead of its
    // tokens: a session missing from the customer's list would work unseen, and nothing the customer
    // can end (docs/product/security.md#sessions). The app's callback offers to sign in again. A
    // renewal goes on (its entry was written at sign-in; only its last-active time is lost).
    const deviceWrites = new WeakMap<object, Promise<'written' | 'failed'>>();
    provider.on('grant.success', (ctx) => {
      const code = ctx.oidc.entities.AuthorizationCode;
      const source = code ?? ctx.oidc.entities.RefreshToken;
      const sid = source?.sid;
      const accountId = source?.accountId;
      if (typeof sid !== 'string' || typeof accountId !== 'string') return;
      const raw = ctx.req as IncomingMessage & { ip?: string };
      const write = recordSessionDevice(db, {
        sid,
        customerId: accountId,
        userAgent: ctx.get('user-agent'),
        address: raw.ip ?? raw.socket.remoteAddress ?? '',
        expiresAt: sessionExpiry(ctx.oidc.entities.Grant?.exp),
      }).then(
        () => 'written' as const,
        (err: unknown) => {
          if (!code) {
            log.warn({ err, sid }, 'could not note a session renewal on its device entry');
            return 'written' as const;
          }
          log.error({ err, sid }, 'could not record the device of a new session: sign-in refused');
          return 'failed' as const;
        },
      );
      deviceWrites.set(ctx, write);
    });
    // The provider answers every failure it did not expect with 500 server_error; one that means the
    // database cannot be reached for now becomes 503 temporarily_unavailable with Retry-After, as the
    // API's own calls do (plugins/errors.ts): a client renews its tokens again, an operator's dashboard
    // tells an outage from a bug.
    const databaseUnavailable = new WeakSet<object>();
    provider.on('server_error', (ctx: object, err: unknown) => {
      if (isDatabaseUnavailable(err)) databaseUnavailable.add(ctx);
    });
    // One middleware answers both 503s, once the provider (and the device write it started) is done.
    const answerUnavailable = (
      ctx: { status: number; body: unknown; set(field: string, value: string): void },
      retryAfter: number,
      description?: string,
    ) => {
      ctx.status = 503;
      ctx.set('retry-after', String(retryAfter));
      ctx.set('cache-control', 'no-store');
      if (description) ctx.body = { error: 'temporarily_unavailable', error_description: description };
    };
    provider.use(async (ctx, next) => {
      await next();
      if ((await deviceWrites.get(ctx)) === 'failed')
        return answerUnavailable(ctx, 1, 'the sign-in could not be recorded; sign in again');
      if (!databaseUnavailable.has(ctx)) return;
      // A page the provider rendered (HTML) keeps its text; a JSON answer says it in OAuth's words.
      const json = (ctx.body as { error?: unknown } | undefined)?.error === 'server_error';
      answerUnavailable(
        ctx,
        UNAVAILABLE_RETRY_AFTER_SECONDS,
        json ? 'the service is unavailable for a moment; try again' : undefined,
      );
    });

    // The discovery document changes only with a deployment, yet the app asks for it on every page
    // load that signs in: before the redirect and again on the callback page. Cached five minutes by
    // the browser, the second costs no round trip (about 160 ms on slow 4G, performance.md#http2).
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/.well-known/openid-configuration' && ctx.status === 200)
        ctx.set('cache-control', `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`);
    });

    const handle = provider.callback();
    /** Paths under the provider's prefixes that Fastify answers (keycloak-routes.ts). */
    const ours = new Set([
      protocolRoutes.userinfo,
      '/.well-known/oauth-authorization-server',
      ...sessionStatusPathList.map((p) => p.slice(REALM_PATH.length)),
    ]);
    // The provider is mounted with middie in a context of its own, whose catch-all routes are the
    // provider's paths: middie's hook then runs for those requests only. Registered at the root it ran
    // for every request, each API call's too (part of a cached read's cost: performance.md, 28 Nov).
    await app.register(async (realm) => {
      await realm.register(middie);
      realm.use(REALM_PATH, (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        if (!providerPathPrefixes.some((prefix) => path.startsWith(prefix)) || ours.has(path)) return next();
        canonicalise(req);
        addDefaultScopes(req, path, config.oidcClientId);
        unwrapRefreshTokenInBody(req, path, refreshTokens).then(
          () => handle(req, res),
          (err: unknown) => next(err),
        );
      });
      // A path the provider does not answer (it passed the request on) is the API's usual 404.
      for (const prefix of providerPathPrefixes)
        realm.all(`${REALM_PATH}${prefix}*`, (_request, reply) => reply.callNotFound());
    });
    await registerKeycloakRoutes(app, {
      config,
      customers,
      forwardToProvider: (req, res, providerPath) => {
        // As middie hands it over: the realm's path stripped (the provider reads its mount from originalUrl).
        (req as IncomingMessage & { originalUrl?: string }).originalUrl = `${REALM_PATH}${providerPath}`;
        req.url = providerPath;
        canonicalise(req);
        void handle(req, res);
      },
    });

    await registerLoginRoutes(app, {
      provider,
      customers,
      passkeys: createPasskeyService(db, { publicUrl: config.publicUrl }),
      throttle: createLoginThrottle(
        db,
        createDeviceCookies(await getOrCreateSecret(db, DEVICE_COOKIE_KEY_SECRET, () => randomSecret(32))),
      ),
      secureCookies: config.publicUrl.startsWith('https:'),
      texts,
      appUrl: `${config.publicUrl}/`,
      stylesheetUrl,
      canonicalise,
      recordEvent: (customerId, kind, details) => recordSecurityEvent(db, customerId, kind, details),
      recovery: createRecoveryService({
        db,
        customers,
        sender: messages,
        texts: messageTexts,
        passwordRules,
        links: {
          reset: (token, language) =>
            `${config.publicUrl}${passwordResetPath(token)}?lang=${messageLanguage(language)}`,
          notMe: (token, language) =>
            `${config.publicUrl}${notMePath(token)}?lang=${messageLanguage(language)}`,
        },
        log: log.child({ part: 'recovery' }),
      }),
      ruleText: (lang, violation) => ruleText(translations, lang, violation),
    });

    // The provider's own end of a session (its logout confirmation, another account signing in).
    provider.on('session.destroyed', (session) => {
      const sids = Object.values(session.authorizations ?? {}).flatMap((a) =>
        typeof a.sid === 'string' ? [a.sid] : [],
      );
      if (session.accountId && sids.length)
        endRevoked(
          sids.map((sid) => ({ sid, accountId: session.accountId! })),
          'signed_out',
        ).catch((err: unknown) => log.error({ err }, 'could not end a destroyed session'));
    });

    app.decorate('identityProvider', {
      issuer: issuerOf(config.publicUrl),
      publicJwks: () => loadPublicJwks(db),
    } satisfies IdentityProvider);

    // Spent recovery links are deleted on the outbox's purge cadence (off in tests, which call it).
    const purgeTimer =
      config.messagesPurgeIntervalSeconds > 0
        ? startExpiryTimer(
            () =>
              app.backgroundJob('recovery-links-purge', async () => {
                const deleted = await purgeSpentRecoveryLinks(db, new Date());
                if (deleted > 0) log.info({ deleted }, 'spent recovery links purged');
              }),
            config.messagesPurgeIntervalSeconds * 1000,
            (err) => log.error({ err }, 'recovery links purge failed'),
          )
        : undefined;

    app.addHook('onClose', async () => {
      purgeTimer?.stop();
      provider.removeAllListeners();
    });
  },
  { name: 'identity-provider', fastify: '5.x', dependencies: ['security-headers'] },
);
