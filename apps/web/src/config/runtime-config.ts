import { appPaths, RUNTIME_CONFIG_ELEMENT_ID, type RuntimeConfig } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { environments } from '@roadpass/contracts';

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; problems: string[] };

type Check = (value: unknown) => boolean;
const isNonEmptyString: Check = (value) => typeof value === 'string' && value.trim() !== '';
const isStringOrNull: Check = (value) => value === null || typeof value === 'string';

/** A non-empty string that parses as a URL, absolute or (with `base`) relative to it. */
function parsesAsUrl(value: unknown, base?: string): boolean {
  if (!isNonEmptyString(value)) return false;
  try {
    new URL(value as string, base);
    return true;
  } catch {
    return false;
  }
}
const isUrl: Check = (value) => parsesAsUrl(value, 'http://placeholder.invalid');
const isAbsoluteUrl: Check = (value) => parsesAsUrl(value);

function get(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined,
      value,
    );
}

/** The realm's endpoints the OIDC client reads (RuntimeConfig's identityProvider.metadata). */
const realmEndpoints = [
  'issuer',
  'authorization_endpoint',
  'token_endpoint',
  'end_session_endpoint',
  'revocation_endpoint',
  'userinfo_endpoint',
] as const satisfies readonly (keyof NonNullable<RuntimeConfig['identityProvider']['metadata']>)[];

/** The feedback form's settings (optional as a whole: an older server sends none). */
const feedbackSettings = ['showName', 'showEmail', 'isNameRequired', 'isEmailRequired'] as const;

/**
 * The RuntimeConfig schema of the contracts, checked by hand: the schema object itself is typebox,
 * which the app does not bundle (docs/decisions/0014-web-bundle-budget.md). The result is typed by the
 * contract, so a change there shows up here as a type error.
 */
const rules: [path: string, check: Check, expected: string][] = [
  [
    'environment',
    (v) => (environments as readonly unknown[]).includes(v),
    `one of ${environments.join(', ')}`,
  ],
  ['identityProvider.url', isUrl, 'a URL'],
  ['identityProvider.realm', isNonEmptyString, 'a non-empty string'],
  ['identityProvider.clientId', isNonEmptyString, 'a non-empty string'],
  [
    'identityProvider.metadata',
    (v) => v === undefined || realmEndpoints.every((key) => isAbsoluteUrl(get(v, key))),
    `absent or { ${realmEndpoints.join(', ')} }, each an absolute URL`,
  ],
  ['errorReporting.dsn', isStringOrNull, 'a string or null'],
  [
    'errorReporting.tracesSampleRate',
    (v) => typeof v === 'number' && v >= 0 && v <= 1,
    'a number from 0 to 1',
  ],
  [
    'errorReporting.serverErrorStatuses',
    (v) => Array.isArray(v) && v.every((s) => Number.isInteger(s) && s >= 500 && s <= 599),
    'a list of statuses from 500 to 599',
  ],
  [
    'feedback',
    (v) => v === undefined || feedbackSettings.every((key) => typeof get(v, key) === 'boolean'),
    `absent or { ${feedbackSettings.join(', ')} }, each true or false`,
  ],
  ['tagManager.id', isStringOrNull, 'a string or null'],
  ['tagManager.url', isUrl, 'a URL'],
];

export function validateRuntimeConfig(value: unknown): RuntimeConfigResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problems: ['config.json must be a JSON object'] };
  }
  const problems = rules
    .filter(([path, check]) => !check(get(value, path)))
    .map(
      ([path, , expected]) =>
        `${path} must be ${expected} (found ${JSON.stringify(get(value, path)) ?? 'nothing'})`,
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config: value as RuntimeConfig };
}

/**
 * The configuration the server put into the page (one round trip less at start), or undefined when the
 * page has none or it is not JSON (then /config.json is asked).
 */
export function embeddedRuntimeConfig(doc: Pick<Document, 'getElementById'> = document): unknown {
  const text = doc.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The runtime configuration (spec: read at start; the same build runs in every environment),
 * validated: the copy embedded in the page when there is one, else /config.json.
 */
export async function loadRuntimeConfig(
  http: HttpClient,
  embedded: unknown = embeddedRuntimeConfig(),
): Promise<RuntimeConfigResult> {
  if (embedded !== undefined) return validateRuntimeConfig(embedded);
  try {
    const value = await http.publicRequest<unknown>({ url: appPaths.runtimeConfig });
    return validateRuntimeConfig(value);
  } catch (error) {
    const status = (error as { status?: number }).status;
    return {
      ok: false,
      problems: [
        `${appPaths.runtimeConfig} could not be loaded (${status ? `HTTP ${status}` : 'network error'})`,
      ],
    };
  }
}
