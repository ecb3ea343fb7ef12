import path from 'node:path';

export type AppEnv = 'development' | 'test' | 'production';

export interface AppConfig {
  env: AppEnv;
  port: number;
  host: string;
  /** Public origin of this server, without trailing slash (issuer and redirect URIs are built from it). */
  publicUrl: string;
  /** postgres://… when set; otherwise an embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  /** Connections to a PostgreSQL server per instance (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
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
  /** How often each instance purges old messages and expired links, PINs and tokens; 0 = never. */
  messagesPurgeIntervalSeconds: number;
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

/** Reads configuration from the environment and reports every bad value at once. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];

  const str = (name: string, fallback: string): string => {
    const value = env[name];
    return value === undefined || value === '' ? fallback : value;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, value: string | undefined, protocols: string[]): string | undefined => {
    if (value === undefined || value === '') return undefined;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
      return value.replace(/\/$/, '');
    } catch {
      problems.push(`${name} must be a URL (got "${value}")`);
      return undefined;
    }
  };

  const rawEnv = str('NODE_ENV', 'development');
  let appEnv: AppEnv = 'development';
  if (rawEnv === 'production' || rawEnv === 'test' || rawEnv === 'development') appEnv = rawEnv;
  else problems.push(`NODE_ENV must be development, test or production (got "${rawEnv}")`);

  const port = int('PORT', 8080, 0, 65535);
  const host = str('HOST', '0.0.0.0');
  const publicUrl = url('PUBLIC_URL', str('PUBLIC_URL', `http://localhost:${port}`), ['http:', 'https:']);
  const databaseUrl = url('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const externalIssuer = url('OIDC_ISSUER', env.OIDC_ISSUER, ['http:', 'https:']);
  const faultInjection = bool('FAULT_INJECTION', false);
  if (faultInjection && appEnv !== 'test')
    problems.push('FAULT_INJECTION is only allowed with NODE_ENV=test');
  const seedDemoData = bool('SEED_DEMO_DATA', appEnv !== 'production');
  if (seedDemoData && appEnv === 'production') problems.push('SEED_DEMO_DATA must not be set in production');
  const logLevel = str('LOG_LEVEL', appEnv === 'test' ? 'warn' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`,
    );
  }

  // A person running `npm start` in a terminal reads short lines; anything else gets JSON.
  const defaultLogFormat = appEnv === 'development' && process.stdout.isTTY ? 'pretty' : 'json';
  const logFormat = str('LOG_FORMAT', defaultLogFormat);
  if (logFormat !== 'pretty' && logFormat !== 'json') {
    problems.push(`LOG_FORMAT must be pretty or json (got "${logFormat}")`);
  }

  const oidcClientId = str('OIDC_CLIENT_ID', 'portal-client');
  const loyaltyClientId = str('LOYALTY_CLIENT_ID', 'rental-system');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(loyaltyClientId)) {
    problems.push(
      `LOYALTY_CLIENT_ID must be 1 to 64 letters, digits, dots, dashes or underscores (got "${loyaltyClientId}")`,
    );
  } else if (loyaltyClientId === oidcClientId) {
    problems.push(`LOYALTY_CLIENT_ID must differ from OIDC_CLIENT_ID (both are "${loyaltyClientId}")`);
  }
  const loyaltyClientSecret = env.LOYALTY_CLIENT_SECRET || undefined;
  if (loyaltyClientSecret !== undefined && loyaltyClientSecret.length < 32) {
    problems.push(
      `LOYALTY_CLIENT_SECRET must be at least 32 characters long (got ${loyaltyClientSecret.length})`,
    );
  }
  const loyaltyAudience = url(
    'LOYALTY_AUDIENCE',
    str('LOYALTY_AUDIENCE', `${publicUrl ?? `http://localhost:${port}`}/api/internal`),
    ['http:', 'https:', 'urn:'],
  );
  // Tests run expiry when they mean to; a timer would change data under them.
  const loyaltyExpiryIntervalSeconds = int(
    'LOYALTY_EXPIRY_INTERVAL_SECONDS',
    appEnv === 'test' ? 0 : 3600,
    0,
    7 * 86_400,
  );

  // Its password must not reach a log, so a bad value is described, never repeated.
  let smtpUrl: string | undefined = env.SMTP_URL || undefined;
  if (smtpUrl !== undefined) {
    const protocol = URL.canParse(smtpUrl) ? new URL(smtpUrl).protocol : '';
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      problems.push('SMTP_URL must be a URL like smtp://user:password@host:587 or smtps://…:465');
      smtpUrl = undefined;
    }
  }
  const mailFrom = str('MAIL_FROM', 'Roadpass <no-reply@roadpass.example>');
  // A bare address or `Name <address>`, on one line (a line break would add mail headers).
  if (
    !/^(?:[^<>\r\n]{1,100} <[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/.test(mailFrom)
  ) {
    problems.push(
      `MAIL_FROM must be an e-mail address or "Name <address>" (got ${JSON.stringify(mailFrom)})`,
    );
  }

  const publicBase = new URL(publicUrl ?? `http://localhost:${port}`);
  const errorReportingDsn = str(
    'ERROR_REPORTING_DSN',
    `${publicBase.protocol}//roadpass@${publicBase.host}/1`,
  );
  const ownDsn = parseSentryDsn(errorReportingDsn);
  if (typeof ownDsn === 'string') problems.push(`ERROR_REPORTING_DSN ${ownDsn}`);
  let errorReportingForwardDsn: ErrorReportingUpstream | undefined;
  if (env.ERROR_REPORTING_FORWARD_DSN) {
    const upstream = parseSentryDsn(env.ERROR_REPORTING_FORWARD_DSN);
    if (typeof upstream === 'string') problems.push(`ERROR_REPORTING_FORWARD_DSN ${upstream}`);
    else errorReportingForwardDsn = upstream;
  }

  const errorReportingServerStatuses = str('ERROR_REPORTING_SERVER_STATUSES', '500')
    .split(',')
    .map((s) => Number(s.trim()));
  if (errorReportingServerStatuses.some((s) => !Number.isInteger(s) || s < 500 || s > 599))
    problems.push(
      `ERROR_REPORTING_SERVER_STATUSES must be statuses from 500 to 599, comma-separated (got "${env.ERROR_REPORTING_SERVER_STATUSES}")`,
    );
  // Sentry's feedback defaults: name and e-mail asked for, neither required. A required field must be shown.
  const feedback = {
    showName: bool('FEEDBACK_SHOW_NAME', true),
    showEmail: bool('FEEDBACK_SHOW_EMAIL', true),
    isNameRequired: bool('FEEDBACK_NAME_REQUIRED', false),
    isEmailRequired: bool('FEEDBACK_EMAIL_REQUIRED', false),
  };
  if (feedback.isNameRequired && !feedback.showName)
    problems.push('FEEDBACK_NAME_REQUIRED needs FEEDBACK_SHOW_NAME (a hidden field cannot be required)');
  if (feedback.isEmailRequired && !feedback.showEmail)
    problems.push('FEEDBACK_EMAIL_REQUIRED needs FEEDBACK_SHOW_EMAIL (a hidden field cannot be required)');
  const tagManagerId = env.TAG_MANAGER_ID || undefined;
  if (tagManagerId !== undefined && !/^[A-Za-z0-9-]{1,40}$/.test(tagManagerId))
    problems.push(`TAG_MANAGER_ID must be a container id like GTM-AB12CD (got "${tagManagerId}")`);
  const tagManagerUrl =
    url('TAG_MANAGER_URL', str('TAG_MANAGER_URL', 'https://www.googletagmanager.com/gtm.js'), [
      'http:',
      'https:',
    ]) ?? 'https://www.googletagmanager.com/gtm.js';

  const config: AppConfig = {
    env: appEnv,
    port,
    host,
    publicUrl: publicUrl ?? `http://localhost:${port}`,
    databaseUrl,
    dataDir: path.resolve(str('DATA_DIR', path.join(repoRoot, 'data'))),
    webDistDir: path.resolve(str('WEB_DIST_DIR', path.join(repoRoot, 'apps/web/dist'))),
    contentDir: path.resolve(str('CONTENT_DIR', path.join(repoRoot, 'content'))),
    externalIssuer,
    accessTokenAudience: externalIssuer ? env.OIDC_AUDIENCE || undefined : 'urn:roadpass:customer-api',
    oidcClientId,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 300, 5, 86_400),
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 8 * 3600, 60, 30 * 86_400),
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', 8 * 3600, 60, 30 * 86_400),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    // One Node process keeps about 20 queries busy at most before its own CPU is the limit; PostgreSQL's
    // default max_connections (100) then leaves room for 4 instances plus tools.
    databasePoolSize: int('DATABASE_POOL_SIZE', 20, 1, 500),
    // A person clicking through the app makes a few calls a second at most; a script far more.
    rateLimitPerAddress: int('RATE_LIMIT_PER_ADDRESS', 1200, 0, 1_000_000),
    rateLimitPerCustomer: int('RATE_LIMIT_PER_CUSTOMER', 600, 0, 1_000_000),
    // A person follows one link now and then; 30 a minute leaves room for a shared office address.
    rateLimitTokenCalls: int('RATE_LIMIT_TOKEN_CALLS', 30, 0, 1_000_000),
    trustProxy: bool('TRUST_PROXY', false),
    faultInjection,
    seedDemoData,
    logLevel,
    logFormat: logFormat === 'pretty' ? 'pretty' : 'json',
    // Production: every error and slow request, 1 % of the rest (a day of traffic in a few MB).
    logRequestSamplePercent: int('LOG_REQUEST_SAMPLE_PERCENT', appEnv === 'production' ? 1 : 100, 0, 100),
    logSlowRequestMs: int('LOG_SLOW_REQUEST_MS', 1000, 1, 600_000),
    loyaltyClientId,
    loyaltyClientSecret,
    loyaltyAudience: loyaltyAudience ?? `${publicUrl ?? `http://localhost:${port}`}/api/internal`,
    loyaltyExpiryIntervalSeconds,
    // Batches sent back to back may take a third of the time: on two cores customers' reads keep
    // 70–96 % of their idle rate (those that need embedded PGlite too), and the rental system still
    // gets about 1 000 events a second through (decision 0013).
    loyaltyBatchSharePercent: int('LOYALTY_BATCH_SHARE_PERCENT', 33, 1, 100),
    // The rental system sends one batch at a time; a few more waiting is a retry storm, not a need.
    loyaltyBatchQueue: int('LOYALTY_BATCH_QUEUE', 8, 0, 1000),
    smtpUrl,
    mailFrom,
    outboxRetentionDays: int('OUTBOX_RETENTION_DAYS', 30, 1, 3650),
    // Tests purge when they mean to; a timer would delete data under them.
    messagesPurgeIntervalSeconds: int(
      'MESSAGES_PURGE_INTERVAL_SECONDS',
      appEnv === 'test' ? 0 : 3600,
      0,
      7 * 86_400,
    ),
    errorReportingDsn,
    errorReportingForwardDsn,
    errorReportsPerMinute: int('ERROR_REPORTS_PER_MINUTE', 30, 0, 100_000),
    errorReportingServerStatuses,
    feedback,
    tagManagerId,
    tagManagerUrl,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
