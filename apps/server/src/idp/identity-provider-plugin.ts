import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import middie from '@fastify/middie';
import type { JWK } from 'jose';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import type { CustomerRepository } from '../modules/customers/index.js';
import { createPasskeyService } from '../modules/passkeys/index.js';
import { getOrCreateSecret, randomSecret } from '../lib/app-secrets.js';
import { serviceClientSecret } from '../modules/loyalty/index.js';
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
import { issuerOf, providerPathPrefixes, REALM_PATH, STYLESHEET_PATH } from './realm.js';

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
}

/**
 * The embedded OpenID Connect provider of the customer realm (oidc-provider, mounted with middie at
 * /auth/realms/customer with Keycloak's endpoint paths) plus its sign-in pages. Everything it keeps
 * (keys, cookie keys, sessions, grants, tokens, failed attempts) lives in the database, so a restart
 * signs nobody out and any number of instances can run side by side.
 */
export default fp<IdentityProviderOptions>(
  async (app, { config, db, customers }) => {
    const texts = await loadLoginTexts(config.contentDir);
    const [signingKeys, cookieKeys, loyaltyClientSecret] = await Promise.all([
      loadSigningKeys(db),
      loadCookieKeys(db),
      serviceClientSecret(db, config),
    ]);
    const stylesheetUrl = `${STYLESHEET_PATH}?v=${loginCssVersion}`;
    const log = app.log.child({ module: 'identity-provider' });

    const provider = createProvider({
      config,
      customers,
      adapter: createKyselyAdapterFactory(db, {
        onCleanupError: (err) => log.warn({ err }, 'could not delete expired identity provider rows'),
      }),
      signingKeys,
      cookieKeys,
      serviceClientSecret: loyaltyClientSecret,
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

    const handle = provider.callback();
    if (!app.hasPlugin('@fastify/middie')) await app.register(middie);
    app.use(REALM_PATH, (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (!providerPathPrefixes.some((prefix) => path.startsWith(prefix))) return next();
      canonicalise(req);
      void handle(req, res);
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
    });

    app.decorate('identityProvider', {
      issuer: issuerOf(config.publicUrl),
      publicJwks: () => loadPublicJwks(db),
    } satisfies IdentityProvider);

    app.addHook('onClose', async () => {
      provider.removeAllListeners();
    });
  },
  { name: 'identity-provider', fastify: '5.x', dependencies: ['security-headers'] },
);
