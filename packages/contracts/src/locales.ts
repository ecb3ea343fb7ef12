import { legalEntities } from './legal-entities.js';

/** The eight languages the product speaks. */
export const languages = ['nl', 'de', 'fr', 'it', 'es', 'hu', 'da', 'en'] as const;
export type Language = (typeof languages)[number];

export const DEFAULT_LOCALE = 'en-DE';
export const DEFAULT_LANGUAGE: Language = 'en';
export const DEFAULT_COUNTRY = 'DE';

export function isLanguage(value: string): value is Language {
  return (languages as readonly string[]).includes(value);
}

/** Supported language-country pairs (lang-COUNTRY), from the legal entity table. */
export const supportedLocales: readonly string[] = legalEntities.flatMap((e) =>
  e.languages.map((lang) => `${lang}-${e.isoCountry}`),
);

/**
 * docs/product/account-rules.md#validation-rules: the requested locale is normalised to lang-COUNTRY and matched against the supported
 * language-country pairs; anything else falls back to en-DE. Accepts en_DE, en-de, EN-DE, "de".
 */
export function normaliseLocale(requested: string | null | undefined): string {
  if (!requested) return DEFAULT_LOCALE;
  const match = /^([a-zA-Z]{2})(?:[-_]([a-zA-Z]{2}))?$/.exec(requested.trim());
  if (!match) return DEFAULT_LOCALE;
  const lang = match[1]!.toLowerCase();
  const country = match[2]?.toUpperCase();
  if (country) {
    const candidate = `${lang}-${country}`;
    return supportedLocales.includes(candidate) ? candidate : DEFAULT_LOCALE;
  }
  // A bare language: the first country that speaks it as its own (en stays en-DE).
  if (lang === 'en') return DEFAULT_LOCALE;
  return supportedLocales.find((l) => l.startsWith(`${lang}-`)) ?? DEFAULT_LOCALE;
}

/** The language part of a lang-COUNTRY (or lang_COUNTRY) locale. */
export function languageOf(locale: string): Language {
  const lang = locale.slice(0, 2).toLowerCase();
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}
