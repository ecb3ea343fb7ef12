import { apiPaths } from '@roadpass/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { markOptionalBodies } from './lib/openapi-document.js';
import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { untracedBackgroundJob, untracedOutgoingCall } from './plugins/background-jobs.js';
import antiForgery from './plugins/anti-forgery.js';
import customerAuth from './plugins/customer-auth.js';
import dpopPlugin from './plugins/dpop.js';
import database from './plugins/database.js';
import compression from './plugins/compression.js';
import errors, { sendFrameworkError, writeClientError } from './plugins/errors.js';
import faultInjection from './plugins/fault-injection.js';
import securityHeaders from './plugins/security-headers.js';
import operations from './plugins/operations.js';
import rateLimits from './plugins/rate-limits.js';
import redis from './plugins/redis.js';
import readCaches from './plugins/read-caches.js';
import requestLog, { loggerOptions, requestLogOptions } from './plugins/request-log.js';
import identityProviderPlugin from './idp/identity-provider-plugin.js';
import { seedDemoData } from './db/seed.js';
import { accountModule, loadAccountRules } from './modules/account/index.js';
import { apiDocsModule } from './modules/api-docs/index.js';
import { consentsModule } from './modules/consents/index.js';
import { contentModule, loadLoyaltyContent, loadTranslations } from './modules/content/index.js';
import { createCustomerRepository, customersModule } from './modules/customers/index.js';
import { createEmailChangeService, emailChangeModule } from './modules/email-change/index.js';
import { dataRightsModule } from './modules/data-rights/index.js';
import { errorReportsModule } from './modules/error-reports/index.js';
import { logoutModule } from './modules/logout/index.js';
import { loyaltyModule } from './modules/loyalty/index.js';
import {
  createMessageSender,
  createSmtpTransport,
  loadMessageTexts,
  messagesModule,
} from './modules/messages/index.js';
import { mobileModule } from './modules/mobile/index.js';
import { createNewsletterService, newsletterModule } from './modules/newsletter/index.js';
import { passkeysModule } from './modules/passkeys/index.js';
import { paymentProfilesModule } from './modules/payment-profiles/index.js';
import { runtimeConfigModule, runtimeConfigOf } from './modules/runtime-config/index.js';
import { securityActivityModule } from './modules/security-activity/index.js';
import { sessionsModule, sessionsPlugin } from './modules/sessions/index.js';
import { webAppFileRoutes, webAppModule } from './modules/web-app/index.js';
import { webviewHostModule } from './modules/webview-host/index.js';

function withFormats(ajv: Ajv): Ajv {
  (ajvFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}

export interface BuildOptions {
  /** A database opened by the caller (tests); otherwise opened from the configuration. */
  db?: Db;
  /** Where log lines go (tests read them); standard output otherwise. */
  logStream?: { write(line: string): void };
}

/**
 * Builds the whole server: the API of docs/product/api.md#calls, the embedded identity provider, the runtime config
 * and the web app. Plugins load in layers: infrastructure → identity → API → web app.
 * server.ts only starts it; tests build the very same app.
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  // Content is checked before anything else opens, so bad content fails start-up with a clear message.
  const translations = await loadTranslations(config.contentDir);
  const loyaltyContent = await loadLoyaltyContent(config.contentDir);
  const messageTexts = await loadMessageTexts(config.contentDir);
  const accountRules = await loadAccountRules(config.contentDir);

  const app = Fastify({
    logger: options.logStream
      ? { ...loggerOptions({ ...config, logFormat: 'json' }), stream: options.logStream }
      : loggerOptions(config),
    // One line per request comes from the request-log plugin instead of Fastify's two.
    ...requestLogOptions(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    // Requests refused before any route runs get the API's error shape too.
    frameworkErrors: (error, _request, reply) => sendFrameworkError(error, reply),
    clientErrorHandler: writeClientError,
    // A plugin may take this long to start. Opening a new embedded database (initdb, migrations, demo
    // data) takes 5 s on an idle two-core machine and about 20 s under load; with PGlite in its own
    // thread Fastify's 10 s default really applies (decision 0012). Each start step still says which
    // step failed, and the server's start-up lock bounds the wait for another instance.
    pluginTimeout: 120_000,
  });

  // Bodies are validated as sent (a number where a string belongs is a type error); path, query and
  // headers arrive as text and are coerced to the schema's types first.
  const validators = {
    body: withFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false })),
    text: withFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: 'array' })),
  };
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? validators.body : validators.text).compile(schema),
  );

  // 1. Infrastructure: headers first (they must reach every response), errors, database.
  await app.register(requestLog, { config });
  await app.register(securityHeaders, { config });
  await app.register(errors);
  await app.register(compression, { precompressedRoutes: webAppFileRoutes });
  await app.register(database, { config, ...(options.db ? { db: options.db } : {}) });
  // Traces only when an OTLP endpoint is set: otherwise not even the tracing code is loaded.
  // Without them, background jobs run as they are (with them, each round is a span: tracing.ts).
  if (config.otelEndpoint) await app.register((await import('./plugins/tracing.js')).default, { config });
  else {
    app.decorate('backgroundJob', untracedBackgroundJob);
    app.decorate('outgoingCall', untracedOutgoingCall);
  }
  await app.register(readCaches, { config });
  // Health and metrics (before the rate limits and routes, so every request is measured).
  await app.register(operations, { config });
  await app.register(swagger, {
    // Only the API (routes with tags) is documented, not the sign-in pages or static files.
    hideUntagged: true,
    openapi: {
      info: { title: 'Roadpass API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // A route that also takes no body at all says so with `'x-optional-body': true` in its schema:
    // the document then marks its request body as not required (fastify-swagger always writes true).
    transformObject: (document) =>
      markOptionalBodies('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
  if (config.faultInjection) await app.register(faultInjection);
  await app.register(redis, { config });
  await app.register(rateLimits, { config });

  // Outbound messages: every e-mail and SMS is kept in the outbox; e-mail also goes out by SMTP when
  // configured. No SMS provider is connected yet (it would plug in as `sms`).
  const smtp = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : undefined;
  if (smtp) app.addHook('onClose', async () => smtp.close());
  const messages = createMessageSender({
    db: app.db,
    log: app.log,
    from: config.mailFrom,
    mail: smtp && {
      send: (message) => app.outgoingCall('smtp send', smtp.serverAttributes, () => smtp.send(message)),
    },
  });

  // 2. Identity: the embedded provider (unless an external realm is trusted), then token checks.
  const customers = createCustomerRepository(app.db);
  const emailChange = createEmailChangeService({
    db: app.db,
    customers,
    sender: messages,
    texts: messageTexts,
    publicUrl: config.publicUrl,
  });
  const newsletter = createNewsletterService({
    db: app.db,
    sender: messages,
    texts: messageTexts,
    publicUrl: config.publicUrl,
  });
  // Each module seeds its own demo data (db/seed.ts calls them in order).
  if (config.seedDemoData) await seedDemoData(app.db, { loyaltyContent, newsletter });
  // What every instance knows of ended sessions: customer-auth refuses their access tokens.
  await app.register(sessionsPlugin, { config });
  if (!config.externalIssuer)
    await app.register(identityProviderPlugin, {
      config,
      db: app.db,
      customers,
      messages,
      messageTexts,
      translations,
      passwordRules: accountRules.passwordMeta,
    });
  // DPoP proofs at the API (decision 0044): before customer-auth, which uses them.
  await app.register(dpopPlugin, { config });
  await app.register(customerAuth, { config });
  await app.register(antiForgery);

  // 3. API and configuration.
  await app.register(runtimeConfigModule, { config });
  await app.register(contentModule, { translations, loyaltyContent, contentDir: config.contentDir });
  await app.register(customersModule, { customers });
  await app.register(accountModule, {
    customers,
    rules: accountRules,
    emailChange,
    translations,
    recentSignInSeconds: config.recentSignInSeconds,
  });
  await app.register(consentsModule, { customers, content: loyaltyContent });
  await app.register(loyaltyModule, {
    config,
    customers,
    content: loyaltyContent,
    messages,
    texts: messageTexts,
  });
  await app.register(emailChangeModule, { emailChange });
  await app.register(mobileModule, {
    customers,
    messages,
    texts: messageTexts,
    rules: accountRules.mobileMeta,
    recentSignInSeconds: config.recentSignInSeconds,
  });
  await app.register(newsletterModule, { customers, newsletter });
  await app.register(paymentProfilesModule, { customers });
  await app.register(passkeysModule, { config, customers });
  await app.register(logoutModule, { embeddedProvider: !config.externalIssuer });
  await app.register(sessionsModule, { embeddedProvider: !config.externalIssuer });
  await app.register(securityActivityModule, {
    retentionDays: config.securityActivityRetentionDays,
    places: () => app.sessionState.places,
  });
  await app.register(messagesModule, { config });
  await app.register(errorReportsModule, { config });
  await app.register(dataRightsModule, { config, customers, sender: messages, texts: messageTexts });
  app.get(apiPaths.openApiDocument, { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  await app.register(apiDocsModule);

  // Outside production: the page that plays the native apps around the webview (docs/native-bridge.md).
  if (config.env !== 'production') await app.register(webviewHostModule, { config });

  // 4. The web app and the fallback for everything else.
  await app.register(webAppModule, { webDistDir: config.webDistDir, runtimeConfig: runtimeConfigOf(config) });

  return app;
}
