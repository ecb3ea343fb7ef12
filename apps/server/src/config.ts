import path from 'node:path';
import { Value } from 'typebox/value';
import {
  configVariableNames,
  configVariables,
  listOf,
  variableKind,
  type AppEnv,
  type DefaultContext,
  type EnvSettings,
  type VariableName,
} from './config-schema.js';

export type { AppEnv } from './config-schema.js';

// Which variables exist, their defaults, limits and meanings: config-schema.ts (the README's table is
// written from it). This file reads them and builds the configuration the server uses.

export interface AppConfig {
  env: AppEnv;
  port: number;
  host: string;
  /** Public origin of this server, without trailing slash (issuer and redirect URIs are built from it). */
  publicUrl: string;
  /** postgres://… when set; otherwise an embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  /** A direct connection for LISTEN and session locks when databaseUrl is a transaction pooler. */
  databaseDirectUrl: string | undefined;
  /** Named (prepared) statements on PostgreSQL connections (decision 0051). */
  databasePreparedStatements: boolean;
  /** Connections to a PostgreSQL server per instance (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** Health and metrics on a port of their own (MANAGEMENT_PORT); undefined: on the main port. */
  managementPort: number | undefined;
  /** Prometheus metrics at /metrics (METRICS_ENABLED). */
  metricsEnabled: boolean;
  /** On SIGTERM: seconds of "not ready" before draining starts (SHUTDOWN_DELAY_SECONDS). */
  shutdownDelaySeconds: number;
  /** On SIGTERM: seconds in-flight requests get to finish (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** Where OTLP/HTTP traces go (OTEL_EXPORTER_OTLP_ENDPOINT); undefined: no tracing. */
  otelEndpoint: string | undefined;
  /** service.name of the traces (OTEL_SERVICE_NAME). */
  otelServiceName: string;
  /** redis://… shared by the instances for the rate limits (REDIS_URL). */
  redisUrl: string | undefined;
  /** Prefix of the keys in Redis (REDIS_KEY_PREFIX). */
  redisKeyPrefix: string;
  /** Requests per minute per client address to /api and /auth; 0 = no limit. */
  rateLimitPerAddress: number;
  /** Signed-in API calls per minute per customer; 0 = no limit. */
  rateLimitPerCustomer: number;
  /** Calls without login that take a token (unsubscribe, e-mail confirmation) per minute per address. */
  rateLimitTokenCalls: number;
  dataDir: string;
  /** Where the built web app lives (served with SPA fallback). */
  webDistDir: string;
  /** Where versioned content files live (translations, identity provider texts, …). */
  contentDir: string;
  /** An external OIDC issuer (e.g. a Keycloak realm) to trust instead of the embedded provider. */
  externalIssuer: string | undefined;
  /** Audience required in access tokens; undefined means not checked (external issuers). */
  accessTokenAudience: string | undefined;
  oidcClientId: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  /** Step-up: a sensitive change needs a sign-in within these seconds (docs/product/security.md#step-up). */
  recentSignInSeconds: number;
  /** DPoP proofs must carry a server nonce (decision 0044, RFC 9449 §8 and §9). */
  /** The app's client must bind its tokens (DPoP); bearer tokens are no longer issued to it. */
  dpopRequired: boolean;
  dpopRequireNonce: boolean;
  /** Days between asking to close the account and the erasure (docs/product/data-rights.md#close-my-account). */
  deletionGraceDays: number;
  /** How often the data-rights worker looks for exports to build and erasures due. */
  dataRightsIntervalSeconds: number;
  bodyLimitBytes: number;
  /** Behind a load balancer: take the client address from X-Forwarded-For (login throttling per IP). */
  trustProxy: boolean;
  /** Test mode only: lets tests make chosen API calls fail on purpose. */
  faultInjection: boolean;
  /** Create the demo customers on start (never in production). */
  seedDemoData: boolean;
  logLevel: string;
  /** `pretty`: one short coloured line per request, for a person at a terminal; `json`: for machines. */
  logFormat: 'pretty' | 'json';
  /** Share of ordinary requests logged (0–100 %); errors and slow requests are always logged. */
  logRequestSamplePercent: number;
  /** A request that takes this long is logged as slow (warn), whatever the sample. */
  logSlowRequestMs: number;
  /** The rental system's service client (client credentials) at the embedded provider. */
  loyaltyClientId: string;
  /**
   * Its secret. Unset outside production: generated once and kept in app_secrets
   * (`npm run loyalty -- service-client` prints it); unset in production: no service client.
   */
  loyaltyClientSecret: string | undefined;
  /** Audience (resource indicator) of the service tokens the internal loyalty endpoint accepts. */
  loyaltyAudience: string;
  /** How often each instance runs points and tier expiry for everyone; 0 turns the timer off. */
  loyaltyExpiryIntervalSeconds: number;
  /** Days before points expire that a reminder is sent, largest first (decision 0035). */
  loyaltyReminderDays: number[];
  /** How often each instance sends due points reminders; 0 turns the timer off. */
  loyaltyReminderIntervalSeconds: number;
  /** Most of the time back-to-back event batches may take, in percent (decision 0013). */
  loyaltyBatchSharePercent: number;
  /** Event batches that may wait for their turn; one more gets 429. */
  loyaltyBatchQueue: number;
  /**
   * smtp://user:pass@host:port or smtps://…: e-mails also go out through this server (they are
   * always kept in the outbox table); unset: outbox only (development, tests).
   */
  smtpUrl: string | undefined;
  /** Sender of every e-mail, e.g. `Roadpass <no-reply@roadpass.example>`. */
  mailFrom: string;
  /** Days an outbox message is kept. */
  outboxRetentionDays: number;
  /** Days a customer's security activity is kept (docs/product/security.md#security-activity). */
  securityActivityRetentionDays: number;
  /** A GeoIP .mmdb file: places of sessions and sign-ins (otherwise the shortened network address). */
  geoipDatabase: string | undefined;
  /** How often each instance purges old messages and expired links, PINs and tokens; 0 = never. */
  messagesPurgeIntervalSeconds: number;
  /** Customers each instance's read caches hold (decision 0011); 0 turns them off. */
  readCacheCustomers: number;
  /**
   * The DSN the app's error reporting SDK is given (/config.json): this server's tunnel project
   * (ERROR_REPORTING_DSN, default http(s)://roadpass@{public host}/1). Envelopes naming another DSN are refused.
   */
  errorReportingDsn: string;
  /** A Sentry-protocol receiver the tunnel forwards every stored envelope to (ERROR_REPORTING_FORWARD_DSN). */
  errorReportingForwardDsn: ErrorReportingUpstream | undefined;
  /** Envelopes per minute per client address at the tunnel (ERROR_REPORTS_PER_MINUTE); 0 = no limit. */
  errorReportsPerMinute: number;
  /** Failed API calls with these statuses are reported by the app (ERROR_REPORTING_SERVER_STATUSES, default 500). */
  errorReportingServerStatuses: number[];
  /**
   * The feedback form's fields (FEEDBACK_SHOW_NAME, FEEDBACK_SHOW_EMAIL, FEEDBACK_NAME_REQUIRED,
   * FEEDBACK_EMAIL_REQUIRED): name and e-mail shown and optional by default; the message is always required.
   */
  feedback: { showName: boolean; showEmail: boolean; isNameRequired: boolean; isEmailRequired: boolean };
  /** The tag manager container (TAG_MANAGER_ID), per environment; undefined: none. */
  tagManagerId: string | undefined;
  /** The tag manager script (TAG_MANAGER_URL); its origin is allowed in the CSP's script-src. */
  tagManagerUrl: string;
}

/** A Sentry DSN taken apart: where envelopes go and with which key. */
export interface ErrorReportingUpstream {
  dsn: string;
  /** {protocol}//{host}{path prefix}/api/{project}/envelope/ */
  envelopeUrl: string;
  publicKey: string;
}

/** Parses a Sentry DSN (https://{public key}@{host}[/{path}]/{project id}); a problem text when it is not one. */
export function parseSentryDsn(value: string): ErrorReportingUpstream | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be a DSN URL like https://key@host/1 (got "${value}")`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must use http: or https: (got "${url.protocol}")`;
  if (!url.username) return `must name the project's public key before the host (got "${value}")`;
  const segments = url.pathname.split('/').filter(Boolean);
  const project = segments.pop();
  if (!project || !/^\d+$/.test(project)) return `must end with the numeric project id (got "${value}")`;
  const prefix = segments.length ? `/${segments.join('/')}` : '';
  return {
    dsn: value,
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${project}/envelope/`,
    publicKey: decodeURIComponent(url.username),
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** One problem, kept with the variable it is about so that the list follows the README's order. */
interface Problem {
  name: VariableName;
  text: string;
}

/**
 * Reads one variable as its schema says: undefined when unset (or empty) or when it is bad, which
 * `problems` then says. A bad value is quoted, except a secret's, which is only described.
 */
function readVariable(name: VariableName, raw: string, problems: Problem[]): unknown {
  const schema = configVariables[name];
  const secret = schema['x-secret'] === true;
  const got = ` (got ${JSON.stringify(raw)})`;
  const fail = (text: string) => {
    problems.push({ name, text: `${name} ${text}` });
    return undefined;
  };
  const allowed = (schema['x-allowed'] ?? '').replaceAll('`', '');
  switch (variableKind(schema)) {
    case 'integer': {
      const value = Number(raw);
      if (Value.Check(schema, value)) return value;
      return fail(
        `must be a whole number from ${schema.minimum as number} to ${schema.maximum as number}${got}`,
      );
    }
    case 'boolean':
      if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
      if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
      return fail(`must be true or false${got}`);
    case 'enum':
      if (Value.Check(schema, raw as unknown)) return raw;
      return fail(`must be ${listOf(schema.enum as string[])}${got}`);
    case 'url': {
      const protocols = schema['x-protocols']!;
      const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
      if (parsed && protocols.includes(parsed.protocol)) return raw.replace(/\/$/, '');
      if (secret) return fail(`must be ${allowed}`);
      if (!parsed) return fail(`must be a URL${got}`);
      return fail(`must use ${listOf(protocols)} (got "${parsed.protocol}")`);
    }
    default: {
      if (Value.Check(schema, raw as unknown)) return raw;
      const minLength = schema.minLength as number | undefined;
      if (minLength !== undefined && raw.length < minLength)
        return fail(`must be at least ${minLength} characters long (got ${raw.length})`);
      return fail(`must be ${allowed}${secret ? '' : got}`);
    }
  }
}

/** Every variable of the schema, read and checked, unset and bad ones at their defaults. */
function readSettings(env: Env, problems: Problem[]): EnvSettings {
  const read = new Map<VariableName, unknown>();
  for (const name of configVariableNames) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') read.set(name, readVariable(name, raw, problems));
  }
  const port = (read.get('PORT') as number | undefined) ?? (configVariables.PORT.default as number);
  const context: DefaultContext = {
    env: (read.get('NODE_ENV') as AppEnv | undefined) ?? 'development',
    port,
    publicUrl: (read.get('PUBLIC_URL') as string | undefined) ?? `http://localhost:${port}`,
    isTerminal: process.stdout.isTTY === true,
    repoRoot,
  };
  const settings: Record<string, unknown> = {};
  for (const name of configVariableNames) {
    const schema = configVariables[name];
    settings[name] = read.get(name) ?? schema['x-default-from']?.(context) ?? schema.default;
  }
  return settings as EnvSettings;
}

/**
 * Reads configuration from the environment (the variables of config-schema.ts) and reports every
 * bad value at once, in the order the README lists them.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: Problem[] = [];
  const problem = (name: VariableName, text: string) => problems.push({ name, text });
  const settings = readSettings(env, problems);
  const appEnv = settings.NODE_ENV;

  // Rules between variables: what one schema entry cannot say alone.
  if (settings.FAULT_INJECTION && appEnv !== 'test')
    problem('FAULT_INJECTION', 'FAULT_INJECTION is only allowed with NODE_ENV=test');
  if (settings.DATABASE_DIRECT_URL && !settings.DATABASE_URL)
    problem(
      'DATABASE_DIRECT_URL',
      'DATABASE_DIRECT_URL needs DATABASE_URL (it is a second way to the same server)',
    );
  if (settings.SEED_DEMO_DATA && appEnv === 'production')
    problem('SEED_DEMO_DATA', 'SEED_DEMO_DATA must not be set in production');
  const isBad = (name: VariableName) => problems.some((p) => p.name === name);
  if (!isBad('LOYALTY_CLIENT_ID') && settings.LOYALTY_CLIENT_ID === settings.OIDC_CLIENT_ID)
    problem(
      'LOYALTY_CLIENT_ID',
      `LOYALTY_CLIENT_ID must differ from OIDC_CLIENT_ID (both are "${settings.LOYALTY_CLIENT_ID}")`,
    );
  const ownDsn = parseSentryDsn(settings.ERROR_REPORTING_DSN);
  if (typeof ownDsn === 'string') problem('ERROR_REPORTING_DSN', `ERROR_REPORTING_DSN ${ownDsn}`);
  let errorReportingForwardDsn: ErrorReportingUpstream | undefined;
  if (settings.ERROR_REPORTING_FORWARD_DSN) {
    const upstream = parseSentryDsn(settings.ERROR_REPORTING_FORWARD_DSN);
    if (typeof upstream === 'string')
      problem('ERROR_REPORTING_FORWARD_DSN', `ERROR_REPORTING_FORWARD_DSN ${upstream}`);
    else errorReportingForwardDsn = upstream;
  }
  const feedback = {
    showName: settings.FEEDBACK_SHOW_NAME,
    showEmail: settings.FEEDBACK_SHOW_EMAIL,
    isNameRequired: settings.FEEDBACK_NAME_REQUIRED,
    isEmailRequired: settings.FEEDBACK_EMAIL_REQUIRED,
  };
  if (feedback.isNameRequired && !feedback.showName)
    problem(
      'FEEDBACK_NAME_REQUIRED',
      'FEEDBACK_NAME_REQUIRED needs FEEDBACK_SHOW_NAME (a hidden field cannot be required)',
    );
  if (feedback.isEmailRequired && !feedback.showEmail)
    problem(
      'FEEDBACK_EMAIL_REQUIRED',
      'FEEDBACK_EMAIL_REQUIRED needs FEEDBACK_SHOW_EMAIL (a hidden field cannot be required)',
    );

  if (problems.length > 0) {
    const order = (p: Problem) => configVariableNames.indexOf(p.name);
    throw new ConfigError(problems.sort((a, b) => order(a) - order(b)).map((p) => p.text));
  }

  const externalIssuer = settings.OIDC_ISSUER;
  return {
    env: appEnv,
    port: settings.PORT,
    host: settings.HOST,
    publicUrl: settings.PUBLIC_URL,
    databaseUrl: settings.DATABASE_URL,
    databaseDirectUrl: settings.DATABASE_DIRECT_URL,
    databasePreparedStatements:
      settings.DATABASE_PREPARED_STATEMENTS === 'true' ||
      (settings.DATABASE_PREPARED_STATEMENTS === 'auto' && settings.DATABASE_DIRECT_URL === undefined),
    dataDir: path.resolve(settings.DATA_DIR),
    webDistDir: path.resolve(settings.WEB_DIST_DIR),
    contentDir: path.resolve(settings.CONTENT_DIR),
    externalIssuer,
    accessTokenAudience: externalIssuer ? settings.OIDC_AUDIENCE : 'urn:roadpass:customer-api',
    oidcClientId: settings.OIDC_CLIENT_ID,
    accessTokenTtlSeconds: settings.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: settings.REFRESH_TOKEN_TTL_SECONDS,
    sessionTtlSeconds: settings.SESSION_TTL_SECONDS,
    recentSignInSeconds: settings.RECENT_SIGN_IN_SECONDS,
    dpopRequired: settings.DPOP_REQUIRED,
    dpopRequireNonce: settings.DPOP_REQUIRE_NONCE,
    deletionGraceDays: settings.DELETION_GRACE_DAYS,
    dataRightsIntervalSeconds: settings.DATA_RIGHTS_INTERVAL_SECONDS,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    // One Node process keeps about 20 queries busy at most before its own CPU is the limit; PostgreSQL's
    // default max_connections (100) then leaves room for 4 instances plus tools.
    databasePoolSize: settings.DATABASE_POOL_SIZE,
    // A person clicking through the app makes a few calls a second at most; a script far more.
    managementPort: settings.MANAGEMENT_PORT,
    metricsEnabled: settings.METRICS_ENABLED,
    shutdownDelaySeconds: settings.SHUTDOWN_DELAY_SECONDS,
    shutdownGraceSeconds: settings.SHUTDOWN_GRACE_SECONDS,
    otelEndpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelServiceName: settings.OTEL_SERVICE_NAME,
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    rateLimitPerAddress: settings.RATE_LIMIT_PER_ADDRESS,
    rateLimitPerCustomer: settings.RATE_LIMIT_PER_CUSTOMER,
    // A person follows one link now and then; 30 a minute leaves room for a shared office address.
    rateLimitTokenCalls: settings.RATE_LIMIT_TOKEN_CALLS,
    trustProxy: settings.TRUST_PROXY,
    faultInjection: settings.FAULT_INJECTION,
    seedDemoData: settings.SEED_DEMO_DATA,
    logLevel: settings.LOG_LEVEL,
    logFormat: settings.LOG_FORMAT,
    logRequestSamplePercent: settings.LOG_REQUEST_SAMPLE_PERCENT,
    logSlowRequestMs: settings.LOG_SLOW_REQUEST_MS,
    loyaltyClientId: settings.LOYALTY_CLIENT_ID,
    loyaltyClientSecret: settings.LOYALTY_CLIENT_SECRET,
    loyaltyAudience: settings.LOYALTY_AUDIENCE,
    loyaltyExpiryIntervalSeconds: settings.LOYALTY_EXPIRY_INTERVAL_SECONDS,
    loyaltyReminderDays: [...new Set(settings.LOYALTY_REMINDER_DAYS.split(',').map(Number))].sort(
      (a, b) => b - a,
    ),
    loyaltyReminderIntervalSeconds: settings.LOYALTY_REMINDER_INTERVAL_SECONDS,
    loyaltyBatchSharePercent: settings.LOYALTY_BATCH_SHARE_PERCENT,
    loyaltyBatchQueue: settings.LOYALTY_BATCH_QUEUE,
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
    outboxRetentionDays: settings.OUTBOX_RETENTION_DAYS,
    securityActivityRetentionDays: settings.SECURITY_ACTIVITY_RETENTION_DAYS,
    geoipDatabase: settings.GEOIP_DATABASE ? path.resolve(settings.GEOIP_DATABASE) : undefined,
    messagesPurgeIntervalSeconds: settings.MESSAGES_PURGE_INTERVAL_SECONDS,
    readCacheCustomers: settings.READ_CACHE_CUSTOMERS,
    errorReportingDsn: settings.ERROR_REPORTING_DSN,
    errorReportingForwardDsn,
    errorReportsPerMinute: settings.ERROR_REPORTS_PER_MINUTE,
    errorReportingServerStatuses: settings.ERROR_REPORTING_SERVER_STATUSES.split(',').map((s) =>
      Number(s.trim()),
    ),
    feedback,
    tagManagerId: settings.TAG_MANAGER_ID,
    tagManagerUrl: settings.TAG_MANAGER_URL,
  };
}
