import { legalEntityById } from '@roadpass/contracts';

/** The access-token claims the app reads (docs/product/data.md#entities-and-fields). */
export interface TokenClaims {
  exp?: number;
  iat?: number;
  sub?: string;
  sid?: string;
  realm_access?: { roles?: string[] };
  resource_access?: Record<string, { roles?: string[] }>;
  legal_entity?: number;
  /** The customer's language as lang-COUNTRY, e.g. fr-FR (the Roadpass provider adds it). */
  locale?: string;
}

/** Decodes a JWT's payload without verifying it (the server verifies); null for anything else. */
export function decodeClaims(token: string | null | undefined): TokenClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** The legal_entity claim mapped to its ISO country (docs/product/data.md#entities-and-fields), e.g. 10 → DE. */
export function legalEntityIsoOf(claims: TokenClaims | null): string | undefined {
  return claims?.legal_entity === undefined ? undefined : legalEntityById(claims.legal_entity)?.isoCountry;
}

/**
 * What the access token says about the customer's language and country, for the moments the customer
 * cannot be loaded (their error screens still speak their language); null when it says nothing.
 */
export function tokenLanguageOf(
  token: string | null | undefined,
): { language: string; legalEntityIso: string } | null {
  const claims = decodeClaims(token);
  const legalEntityIso = legalEntityIsoOf(claims);
  const locale = typeof claims?.locale === 'string' ? claims.locale : undefined;
  if (!legalEntityIso || !locale || !/^[a-z]{2}[-_][A-Z]{2}$/.test(locale)) return null;
  return { language: locale.replace('-', '_'), legalEntityIso };
}
