import Type, { type Static, type TSchema } from 'typebox';

// Every environment variable the server reads, declared once: its type and limits (checked by
// TypeBox), its default, and the words the README's configuration table shows (`npm run docs:config`
// writes the table from here; config-docs.test.ts fails when they differ). Defaults that depend on
// another setting (NODE_ENV, PORT, PUBLIC_URL) are functions of the values read before them.
//
// This file imports nothing of the project's own, so `scripts/docs-config.mjs` can load it with
// Node's type stripping and no build; keep its syntax erasable (no enums, no parameter properties).

export type AppEnv = 'development' | 'test' | 'production';

/** What a default may depend on: the settings read first, and the machine. */
export interface DefaultContext {
  env: AppEnv;
  port: number;
  publicUrl: string;
  /** Whether a person reads the output at a terminal (stdout is a TTY). */
  isTerminal: boolean;
  repoRoot: string;
}

/** The non-standard keywords of a variable's schema (TypeBox keeps and ignores them). */
export interface VariableAnnotations {
  /** The README's "Meaning" column, Markdown. */
  description: string;
  /** A default that depends on other settings; `default` is then the usual value. */
  'x-default-from'?: (context: DefaultContext) => unknown;
  /** The README's "Default" column when `default` alone would mislead, Markdown. */
  'x-default-text'?: string;
  /** The README's "Allowed" column, and the problem "{NAME} must be {allowed}", when not derived from the type. */
  'x-allowed'?: string;
  /** A URL's allowed protocols, e.g. ['http:', 'https:']. */
  'x-protocols'?: string[];
  /** Never repeated in a problem (it may hold a password). */
  'x-secret'?: boolean;
}

const annotate = (annotations: VariableAnnotations) => annotations;
const integer = (minimum: number, maximum: number, value: number, annotations: VariableAnnotations) =>
  Type.Integer({ minimum, maximum, default: value, ...annotations });
const boolean = (value: boolean, annotations: VariableAnnotations) =>
  Type.Boolean({ default: value, ...annotations });
const url = (protocols: string[], annotations: VariableAnnotations, value?: string) =>
  Type.String({
    ...(value === undefined ? {} : { default: value }),
    ...annotations,
    'x-protocols': protocols,
  });
const httpUrl = ['http:', 'https:'];

const envSchema = Type.Object({
  PORT: integer(0, 65535, 8080, { description: 'port to listen on' }),
  HOST: Type.String({ default: '0.0.0.0', ...annotate({ description: 'interface to listen on' }) }),
  PUBLIC_URL: url(httpUrl, {
    description: 'public origin; the issuer and redirect URIs are built from it',
    'x-default-from': ({ port }) => `http://localhost:${port}`,
    'x-default-text': '`http://localhost:$PORT`',
  }),
  DATABASE_URL: Type.Optional(
    url(['postgres:', 'postgresql:'], {
      description: '`postgres://…` to use a PostgreSQL server instead of embedded PGlite',
    }),
  ),
  DATABASE_DIRECT_URL: Type.Optional(
    url(['postgres:', 'postgresql:'], {
      description:
        'straight to PostgreSQL, for `LISTEN`, migrations and start-up locks, when `DATABASE_URL` is a transaction-pooling PgBouncer',
      'x-default-text': '`DATABASE_URL`',
      'x-secret': true,
    }),
  ),
  DATABASE_POOL_SIZE: integer(1, 500, 20, {
    description: 'connections to the PostgreSQL server per instance',
  }),
  DATABASE_PREPARED_STATEMENTS: Type.Enum(['auto', 'true', 'false'], {
    default: 'auto',
    ...annotate({
      description:
        "PostgreSQL parses and plans each of the app's statements once per connection (decision 0051); `auto`: on, unless `DATABASE_DIRECT_URL` says `DATABASE_URL` is a PgBouncer (1.21 and later carry them with `max_prepared_statements`: then `true`)",
    }),
  }),
  READ_CACHE_CUSTOMERS: integer(0, 1_000_000, 20_000, {
    description:
      'customers whose login status and loyalty answers each instance keeps in memory (decision 0011; 64 MB of answers at most); `0` = no read caches',
  }),
  MANAGEMENT_PORT: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 65535,
      ...annotate({
        description:
          'serve `/health/live`, `/health/ready` and `/metrics` on this port (on `HOST`, e.g. `9000`) instead of the main port',
      }),
    }),
  ),
  METRICS_ENABLED: boolean(true, {
    description: 'collect Prometheus metrics and serve them at `/metrics`',
  }),
  SHUTDOWN_DELAY_SECONDS: integer(0, 300, 5, {
    description:
      'on SIGTERM: seconds the instance keeps serving while `/health/ready` answers 503, so the load balancer stops sending to it',
  }),
  SHUTDOWN_GRACE_SECONDS: integer(1, 600, 30, {
    description:
      'on SIGTERM, after the delay: seconds in-flight requests get to finish before the process exits anyway',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    url(httpUrl, {
      description:
        'OpenTelemetry traces (request and database spans, with the request id) go to `<this>/v1/traces` by OTLP/HTTP; unset: no tracing code is loaded',
    }),
  ),
  OTEL_SERVICE_NAME: Type.String({
    default: 'roadpass',
    ...annotate({ description: "the traces' `service.name`" }),
  }),
  REDIS_URL: Type.Optional(
    url(['redis:', 'rediss:'], {
      description:
        '`redis://…` to share the rate limits and the event batch queue between instances; without it (or while Redis is unreachable) each instance counts alone',
      'x-secret': true,
    }),
  ),
  REDIS_KEY_PREFIX: Type.String({
    default: 'roadpass:',
    ...annotate({ description: 'prefix of every key the instances keep in Redis' }),
  }),
  RATE_LIMIT_PER_ADDRESS: integer(0, 1_000_000, 1200, {
    description:
      'requests per minute per client address to `/api` and `/auth` (429 with `Retry-After` above it); `0` = off',
  }),
  RATE_LIMIT_PER_CUSTOMER: integer(0, 1_000_000, 600, {
    description: 'signed-in API calls per minute per customer; `0` = off',
  }),
  RATE_LIMIT_TOKEN_CALLS: integer(0, 1_000_000, 30, {
    description:
      "calls without login taking a link's token (unsubscribe, e-mail confirmation) per minute per address",
  }),
  DATA_DIR: Type.String({
    ...annotate({
      description: 'where the embedded database lives',
      'x-default-from': ({ repoRoot }) => `${repoRoot}/data`,
      'x-default-text': '`./data`',
      'x-allowed': 'a folder',
    }),
  }),
  WEB_DIST_DIR: Type.String({
    ...annotate({
      description: 'the built web app, served with the fallback to `index.html` for its addresses',
      'x-default-from': ({ repoRoot }) => `${repoRoot}/apps/web/dist`,
      'x-default-text': '`./apps/web/dist`',
      'x-allowed': 'a folder',
    }),
  }),
  CONTENT_DIR: Type.String({
    ...annotate({
      description: 'translations, loyalty content (tiers, rewards, FAQ, consents, images); checked at start',
      'x-default-from': ({ repoRoot }) => `${repoRoot}/content`,
      'x-default-text': '`./content`',
      'x-allowed': 'a folder',
    }),
  }),
  NODE_ENV: Type.Enum(['development', 'test', 'production'], {
    default: 'development',
    ...annotate({ description: 'no demo data in production; `test` allows fault injection' }),
  }),
  OIDC_ISSUER: Type.Optional(
    url(httpUrl, { description: 'trust an external Keycloak realm instead of the embedded provider' }),
  ),
  OIDC_AUDIENCE: Type.Optional(
    Type.String({
      ...annotate({
        description: "audience required in an external issuer's access tokens",
        'x-allowed': 'text',
      }),
    }),
  ),
  OIDC_CLIENT_ID: Type.String({
    default: 'portal-client',
    ...annotate({ description: "the app's OIDC client", 'x-allowed': 'text' }),
  }),
  ACCESS_TOKEN_TTL_SECONDS: integer(5, 86_400, 300, {
    description: 'access token lifetime (embedded provider)',
  }),
  REFRESH_TOKEN_TTL_SECONDS: integer(60, 30 * 86_400, 8 * 3600, { description: 'refresh token lifetime' }),
  SESSION_TTL_SECONDS: integer(60, 30 * 86_400, 8 * 3600, { description: 'sign-in session lifetime' }),
  RECENT_SIGN_IN_SECONDS: integer(10, 86_400, 600, {
    description:
      'how recent a sign-in must be for sensitive changes (e-mail, mobile, password, passkeys, data download, closing the account)',
  }),
  DPOP_REQUIRED: boolean(false, {
    description:
      "the app's client gets DPoP-bound tokens only (RFC 9449 `dpop_bound_access_tokens`): token requests without a proof are refused; only once the native apps send proofs (docs/native-bridge.md#dpop)",
  }),
  DPOP_REQUIRE_NONCE: boolean(false, {
    description:
      'DPoP proofs (RFC 9449) must carry a server nonce at the token endpoint and the API (`use_dpop_nonce` otherwise); else a recent `iat` does',
  }),
  DELETION_GRACE_DAYS: integer(1, 365, 30, {
    description:
      'days between asking to close the account and the erasure (docs/product/data-rights.md#close-my-account)',
  }),
  DATA_RIGHTS_INTERVAL_SECONDS: integer(1, 86_400, 60, {
    description: 'how often each instance looks for waiting data exports and due erasures',
  }),
  BODY_LIMIT_BYTES: integer(1024, 10 * 1024 * 1024, 64 * 1024, {
    description: 'largest accepted request body',
  }),
  TRUST_PROXY: boolean(false, {
    description:
      'behind a load balancer: take the client address from `X-Forwarded-For` (sign-in throttling counts per address)',
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    ...annotate({
      description: 'the least severe log lines written',
      // Tests read their own failures; the server's info lines would drown them.
      'x-default-from': ({ env }) => (env === 'test' ? 'warn' : 'info'),
      'x-default-text': '`info` (`warn` in test)',
    }),
  }),
  LOG_FORMAT: Type.Enum(['pretty', 'json'], {
    default: 'json',
    ...annotate({
      description:
        '`pretty`: one short line per request for a person; `json`: one JSON object per line for log collectors',
      // A person running `npm start` in a terminal reads short lines; anything else gets JSON.
      'x-default-from': ({ env, isTerminal }) => (env === 'development' && isTerminal ? 'pretty' : 'json'),
      'x-default-text': '`pretty` in a terminal in development, else `json`',
    }),
  }),
  LOG_REQUEST_SAMPLE_PERCENT: integer(0, 100, 100, {
    description:
      'share of ordinary requests logged; errors (5xx) and slow requests are always logged, with their request id',
    // Production: every error and slow request, 1 % of the rest (a day of traffic in a few MB).
    'x-default-from': ({ env }) => (env === 'production' ? 1 : 100),
    'x-default-text': '`100` (`1` in production)',
  }),
  LOG_SLOW_REQUEST_MS: integer(1, 600_000, 1000, { description: 'a request this slow is logged at `warn`' }),
  FAULT_INJECTION: boolean(false, {
    description:
      'test hooks (`/__test__/…`): chosen calls fail, a customer per test, the session check off; only allowed with `NODE_ENV=test`',
  }),
  SEED_DEMO_DATA: boolean(true, {
    description: 'create the demo customers; not allowed in production',
    'x-default-from': ({ env }) => env !== 'production',
    'x-default-text': '`true` outside production',
  }),
  LOYALTY_CLIENT_ID: Type.String({
    default: 'rental-system',
    pattern: '^[A-Za-z0-9._-]{1,64}$',
    ...annotate({
      description:
        "the rental system's service client (client credentials) for the internal loyalty endpoint; must differ from `OIDC_CLIENT_ID`",
      'x-allowed': '1 to 64 letters, digits, dots, dashes or underscores',
    }),
  }),
  LOYALTY_CLIENT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      ...annotate({
        description:
          'its secret; unset outside production: generated once and kept in the database (`npm run loyalty -- service-client` prints it); unset in production: no service client',
        'x-default-text': 'generated outside production',
        'x-secret': true,
      }),
    }),
  ),
  LOYALTY_AUDIENCE: url([...httpUrl, 'urn:'], {
    description: 'audience of the service tokens the internal endpoint accepts',
    'x-default-from': ({ publicUrl }) => `${publicUrl}/api/internal`,
    'x-default-text': '`$PUBLIC_URL/api/internal`',
  }),
  LOYALTY_EXPIRY_INTERVAL_SECONDS: integer(0, 7 * 86_400, 3600, {
    description: 'how often each instance expires points and recomputes due tiers; `0` turns it off',
    // Tests run expiry when they mean to; a timer would change data under them.
    'x-default-from': ({ env }) => (env === 'test' ? 0 : 3600),
    'x-default-text': '`3600` (`0` in test)',
  }),
  LOYALTY_REMINDER_DAYS: Type.String({
    default: '30,7',
    pattern:
      '^([1-9][0-9]?|[1-2][0-9]{2}|3[0-5][0-9]|36[0-5])(,([1-9][0-9]?|[1-2][0-9]{2}|3[0-5][0-9]|36[0-5])){0,4}$',
    ...annotate({
      description:
        'days before points expire that a points reminder e-mail is sent, one reminder per number (decision 0035)',
      'x-allowed': 'up to five whole days 1–365, comma-separated',
    }),
  }),
  LOYALTY_REMINDER_INTERVAL_SECONDS: integer(0, 7 * 86_400, 3600, {
    description: 'how often each instance sends the points reminders that are due; `0` turns it off',
    // Tests run the reminder job when they mean to.
    'x-default-from': ({ env }) => (env === 'test' ? 0 : 3600),
    'x-default-text': '`3600` (`0` in test)',
  }),
  // Batches sent back to back may take a third of the time: on two cores customers' reads keep
  // 70–96 % of their idle rate (those that need embedded PGlite too), and the rental system still
  // gets about 1 000 events a second through (decision 0013).
  LOYALTY_BATCH_SHARE_PERCENT: integer(1, 100, 33, {
    description:
      "most of the time event batches sent back to back may take; each instance rests after a batch in proportion to its time, so customers' requests keep the rest (decision 0013)",
  }),
  // The rental system sends one batch at a time; a few more waiting is a retry storm, not a need.
  LOYALTY_BATCH_QUEUE: integer(0, 1000, 8, {
    description:
      'event batches that may wait for their turn on an instance (with `REDIS_URL`: on all instances together); one more gets 429 with `Retry-After`, nothing recorded',
  }),
  SMTP_URL: Type.Optional(
    url(['smtp:', 'smtps:'], {
      description: 'e-mails also go out by SMTP (they are always kept in the outbox)',
      'x-allowed': 'a URL like `smtp://user:password@host:587` or `smtps://…:465`',
      // Its password must not reach a log, so a bad value is described, never repeated.
      'x-secret': true,
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Roadpass <no-reply@roadpass.example>',
    // A bare address or `Name <address>`, on one line (a line break would add mail headers).
    pattern: String.raw`^(?:[^<>\r\n]{1,100} <[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$`,
    ...annotate({
      description: 'sender of every e-mail',
      'x-allowed': 'an e-mail address or "Name <address>"',
    }),
  }),
  SECURITY_ACTIVITY_RETENTION_DAYS: integer(1, 3650, 90, {
    description: "days a customer's security activity (sign-ins, changes, ended sessions) is kept",
  }),
  GEOIP_DATABASE: Type.Optional(
    Type.String({
      minLength: 1,
      ...annotate({
        description:
          'a GeoIP2/GeoLite2 City or Country database (.mmdb): sessions and sign-ins show the place; without it the shortened network address',
        'x-allowed': 'a file path',
      }),
    }),
  ),
  OUTBOX_RETENTION_DAYS: integer(1, 3650, 30, { description: 'days an e-mail or SMS stays in the outbox' }),
  MESSAGES_PURGE_INTERVAL_SECONDS: integer(0, 7 * 86_400, 3600, {
    description: 'how often old messages and expired links, PINs and tokens are deleted; `0` = never',
    // Tests purge when they mean to; a timer would delete data under them.
    'x-default-from': ({ env }) => (env === 'test' ? 0 : 3600),
    'x-default-text': '`3600` (`0` in test)',
  }),
  ERROR_REPORTING_DSN: Type.String({
    ...annotate({
      description:
        "the DSN the app's error reporting SDK gets in `/config.json` (the tunnel's project; envelopes naming another DSN are refused)",
      'x-default-from': ({ publicUrl }) => {
        const base = new URL(publicUrl);
        return `${base.protocol}//roadpass@${base.host}/1`;
      },
      'x-default-text': '`http(s)://roadpass@{public host}/1`',
      'x-allowed': 'a DSN like `https://key@host/1`',
    }),
  }),
  ERROR_REPORTING_FORWARD_DSN: Type.Optional(
    Type.String({
      ...annotate({
        description:
          'a Sentry DSN the tunnel `POST /api/error-reports/envelope` forwards every stored envelope to',
        'x-allowed': 'a DSN like `https://key@host/1`',
      }),
    }),
  ),
  ERROR_REPORTS_PER_MINUTE: integer(0, 100_000, 30, {
    description: 'envelopes per minute per client address at the tunnel; `0` = off',
  }),
  ERROR_REPORTING_SERVER_STATUSES: Type.String({
    default: '500',
    pattern: String.raw`^\s*5\d\d\s*(?:,\s*5\d\d\s*)*$`,
    ...annotate({
      description: 'failed API calls with these statuses are reported by the app',
      'x-allowed': 'statuses from 500 to 599, comma-separated',
    }),
  }),
  // Sentry's feedback defaults: name and e-mail asked for, neither required. A required field must be shown.
  FEEDBACK_SHOW_NAME: boolean(true, {
    description: 'the "Report a Bug" form asks for a name (`/config.json` `feedback.showName`)',
  }),
  FEEDBACK_SHOW_EMAIL: boolean(true, {
    description: 'the form asks for an e-mail address (format not checked)',
  }),
  FEEDBACK_NAME_REQUIRED: boolean(false, {
    description: 'the name must be given (needs `FEEDBACK_SHOW_NAME`); the message always must',
  }),
  FEEDBACK_EMAIL_REQUIRED: boolean(false, {
    description: 'the e-mail address must be given (needs `FEEDBACK_SHOW_EMAIL`)',
  }),
  TAG_MANAGER_ID: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]{1,40}$',
      ...annotate({
        description: 'the tag manager container per environment; loaded only after analytics consent',
        'x-allowed': 'a container id like GTM-AB12CD',
      }),
    }),
  ),
  TAG_MANAGER_URL: url(
    httpUrl,
    {
      description:
        "the tag manager's script; its origin joins the CSP's `script-src` when `TAG_MANAGER_ID` is set",
    },
    'https://www.googletagmanager.com/gtm.js',
  ),
});

/** The environment, read and checked: every variable with its value or default. */
export type EnvSettings = Static<typeof envSchema>;
export type VariableName = keyof EnvSettings & string;
export type VariableSchema = TSchema & VariableAnnotations & Record<string, unknown>;

/** The variables in the order the README lists them (and problems are reported). */
export const configVariables = envSchema.properties as unknown as Record<VariableName, VariableSchema>;
export const configVariableNames = Object.keys(configVariables) as VariableName[];
export const configSchema = envSchema;

/** How a variable's text is read. */
export function variableKind(schema: VariableSchema): 'integer' | 'boolean' | 'enum' | 'url' | 'string' {
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'boolean') return 'boolean';
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema['x-protocols']) return 'url';
  return 'string';
}

/** "a, b or c" */
export function listOf(values: readonly unknown[], conjunction = 'or'): string {
  const words = values.map(String);
  return words.length < 2
    ? words.join('')
    : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

/** The README's "Allowed" column for one variable. */
export function allowedText(schema: VariableSchema): string {
  if (schema['x-allowed']) return schema['x-allowed'];
  switch (variableKind(schema)) {
    case 'integer':
      return `whole number ${schema.minimum as number}–${schema.maximum as number}`;
    case 'boolean':
      return '`true` or `false`';
    case 'enum':
      return listOf((schema.enum as string[]).map((v) => `\`${v}\``));
    case 'url':
      return `URL (${listOf(schema['x-protocols']!.map((p) => `\`${p}\``))})`;
    default:
      return typeof schema.minLength === 'number' ? `at least ${schema.minLength} characters` : 'text';
  }
}

/** The README's "Default" column for one variable. */
export function defaultText(schema: VariableSchema): string {
  if (schema['x-default-text']) return schema['x-default-text'];
  return schema.default === undefined ? 'unset' : `\`${String(schema.default)}\``;
}

export const CONFIG_TABLE_START =
  '<!-- configuration table: npm run docs:config writes it from apps/server/src/config-schema.ts -->';
export const CONFIG_TABLE_END = '<!-- end of configuration table -->';

/** The configuration table's rows as the README shows them: variable, default, allowed, meaning. */
export function configTableRows(): string[][] {
  return configVariableNames.map((name) => {
    const schema = configVariables[name];
    return [`\`${name}\``, defaultText(schema), allowedText(schema), schema.description];
  });
}

/** The table in Markdown (unaligned: the script lets Prettier align it). */
export function configTableMarkdown(): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['Variable', 'Default', 'Allowed', 'Meaning']),
    line(['---', '---', '---', '---']),
    ...configTableRows().map(line),
  ].join('\n');
}
