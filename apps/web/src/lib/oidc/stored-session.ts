import { authorityOf, type RuntimeConfig } from '@roadpass/contracts';

/** What the app needs of a signed-in session; oidc-client-ts's User has these fields too. */
export interface SessionTokens {
  access_token: string;
  refresh_token?: string | undefined;
  id_token?: string | undefined;
  /** Device-clock epoch seconds (oidc-client-ts computes it from expires_in on arrival). */
  expires_at?: number | undefined;
  /** `DPoP` for a token bound to the browser's key (decision 0044), else `Bearer`. */
  token_type?: string | undefined;
  state?: unknown;
}

/** Where oidc-client-ts keeps the user: WebStorageStateStore's prefix + UserManager's user key. */
export const storedSessionKey = (config: RuntimeConfig) =>
  `oidc.user:${authorityOf(config)}:${config.identityProvider.clientId}`;

/**
 * The session oidc-client-ts stored, read without loading oidc-client-ts (about 18 kB gzip): a
 * customer with a valid stored token sees their page first, and the library loads afterwards.
 */
export function readStoredSession(storage: Storage, key: string): SessionTokens | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.access_token !== 'string' || record.access_token === '') return null;
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined);
  return {
    access_token: record.access_token,
    refresh_token: text(record.refresh_token),
    id_token: text(record.id_token),
    token_type: text(record.token_type),
    expires_at: typeof record.expires_at === 'number' ? record.expires_at : undefined,
  };
}

/** Whether a stored session's token has expired (device clock). */
export const hasExpired = (session: SessionTokens, nowSeconds = Date.now() / 1000) =>
  session.expires_at !== undefined && session.expires_at <= nowSeconds;
