import { ACCESS_TOKEN_STORAGE_KEY, type CountryCode, type Language } from '@roadpass/contracts';

/** Browser storage keys of docs/product/data.md#entities-and-fields, written once. */
export const storageKeys = {
  /** sessionStorage: the current access token (mirrors the OIDC user store). */
  token: ACCESS_TOKEN_STORAGE_KEY,
  /** sessionStorage: the current refresh token (mirrors the OIDC user store). */
  refreshToken: 'roadpass.refreshToken',
  /** localStorage: the customer's chosen country and language. */
  countryLanguage: 'roadpass.countryLanguage',
  /** localStorage: the customer context (used by later issues). */
  customerContext: 'roadpass.customerContext',
  /** sessionStorage: where to continue after a detour, e.g. `loyalty/history` (docs/product/addresses-and-routes.md#screens-and-routes entry route). */
  redirect: 'roadpass.redirect',
  /** sessionStorage prefix: a form's input kept across the step-up sign-in (lib/forms/step-up.ts). */
  stepUpDraft: 'roadpass.stepUp.',
  /** localStorage: the points expiry hints already handed to the native app (their keys, docs/native-bridge.md). */
  pointsExpiryHints: 'roadpass.pointsExpiryHints',
} as const;

/** Storage can be unavailable (privacy modes, blocked cookies): reads return null, writes are dropped. */
export function readItem(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(storage: Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Nothing to do: the app works without persistence.
  }
}

export interface CountryLanguage {
  country: CountryCode | string;
  language: Language | string;
}

/** The stored country/language preference, e.g. {"country":"DE","language":"de"}; null if absent or broken. */
export function readCountryLanguage(storage: Storage = localStorage): CountryLanguage | null {
  const raw = readItem(storage, storageKeys.countryLanguage);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<CountryLanguage>;
    if (typeof value.country === 'string' && typeof value.language === 'string') {
      return { country: value.country.toUpperCase(), language: value.language.toLowerCase() };
    }
  } catch {
    // A broken value counts as no preference.
  }
  return null;
}

export function writeCountryLanguage(value: CountryLanguage, storage: Storage = localStorage): void {
  writeItem(storage, storageKeys.countryLanguage, JSON.stringify(value));
}
