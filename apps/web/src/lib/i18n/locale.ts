import {
  DEFAULT_COUNTRY,
  DEFAULT_LANGUAGE,
  DEFAULT_LOCALE,
  isLanguage,
  languageOf,
  legalEntityByCountry,
  normaliseLocale,
  type Language,
  type SessionUser,
} from '@roadpass/contracts';
import { matchAccountHome } from '@/config/routes';
import type { CountryLanguage } from '@/lib/storage/storage';

export interface LocaleInputs {
  /** The signed-in customer, when known. */
  user: Pick<SessionUser, 'language' | 'legalEntityIso'> | null;
  /** The current address; an account-home path names a language. */
  pathname: string;
  /** The locale query parameter of the current address. */
  requestedLocale: string | null;
  /** The stored country/language preference. */
  preference: CountryLanguage | null;
  isWebView: boolean;
  /** The browser's languages (navigator.languages): the last resort before the default. */
  browserLanguages?: readonly string[];
}

export interface CountryAndLanguage {
  country: string;
  language: Language;
  /** lang-COUNTRY for the content collection, e.g. de-DE. */
  locale: string;
}

/** A browser language tag as a supported lang-COUNTRY (de → de-DE, de-AT), or undefined. */
function supportedLocaleOf(tag: string): string | undefined {
  const locale = normaliseLocale(tag);
  return locale !== DEFAULT_LOCALE || /^en\b/i.test(tag) ? locale : undefined;
}

function languagePart(value: string | null | undefined): string | undefined {
  return value ? value.slice(0, 2).toLowerCase() : undefined;
}

function countryOfUser(user: LocaleInputs['user']): string | undefined {
  if (!user) return undefined;
  const fromLanguage = user.language.split('_')[1];
  if (fromLanguage && legalEntityByCountry(fromLanguage)) return fromLanguage.toUpperCase();
  return legalEntityByCountry(user.legalEntityIso) ? user.legalEntityIso.toUpperCase() : undefined;
}

/**
 * Which country and language the app shows (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions, docs/product/account-rules.md#validation-rules). The requested locale is normalised to a
 * supported lang-COUNTRY first (`hu-HU`, `da_DK`, `nl-nl`, `hu` → hu-HU; anything else → en-DE). The
 * country is the customer's (from their language_COUNTRY), else the address's, else the requested
 * locale's, else the stored preference's; default DE. The language is the first of the requested
 * locale, the address's language, the stored preference (not in a webview), the customer's language,
 * that the country offers; default en.
 */
export function resolveCountryLanguage(inputs: LocaleInputs): CountryAndLanguage {
  const path = matchAccountHome(inputs.pathname);
  const preference = inputs.isWebView ? null : inputs.preference;
  const requested = inputs.requestedLocale ? normaliseLocale(inputs.requestedLocale) : undefined;
  const browser = (inputs.browserLanguages ?? []).map(supportedLocaleOf).filter(Boolean) as string[];
  const candidateCountry =
    countryOfUser(inputs.user) ??
    path?.country ??
    requested?.split('-')[1] ??
    preference?.country.toUpperCase() ??
    browser[0]?.split('-')[1] ??
    DEFAULT_COUNTRY;
  const entity = legalEntityByCountry(candidateCountry) ?? legalEntityByCountry(DEFAULT_COUNTRY)!;
  const country = entity.isoCountry;

  const candidates = [
    requested ? languageOf(requested) : undefined,
    path?.lang,
    preference && preference.country.toUpperCase() === country
      ? languagePart(preference.language)
      : undefined,
    languagePart(inputs.user?.language),
    ...browser.map(languageOf),
    DEFAULT_LANGUAGE,
  ];
  const language =
    candidates.find(
      (lang): lang is Language => !!lang && isLanguage(lang) && entity.languages.includes(lang),
    ) ?? DEFAULT_LANGUAGE;
  return { country, language, locale: normaliseLocale(`${language}-${country}`) };
}

/** A language's name in that language, e.g. de → "Deutsch", fr → "Français" (via Intl). */
export function nativeLanguageName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return language;
  }
}

/** A country's name in the display language, e.g. DE in en → "Germany" (via Intl). */
export function countryName(country: string, displayLanguage: string): string {
  try {
    return new Intl.DisplayNames([displayLanguage], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}

/**
 * `ui_locales` for the identity provider's sign-in page, before anything of the customer is known:
 * the requested locale (when it names a supported one), then the stored country/language preference;
 * each supported language once, in that order. Undefined when neither names one: the identity
 * provider then chooses itself, from the language of the customer who last signed in or out in this
 * browser, else the browser's languages (Accept-Language). Sending the browser's languages here
 * would hide the signed-out customer's language behind them (issue 17).
 */
export function signInUiLocales(inputs: {
  requestedLocale: string | null;
  preference: CountryLanguage | null;
}): string | undefined {
  const requested = inputs.requestedLocale?.trim();
  const supported = requested ? supportedLocaleOf(requested) : undefined;
  const fromRequest = supported ? languageOf(supported) : undefined;
  const candidates = [fromRequest, languagePart(inputs.preference?.language)].filter(
    (lang): lang is Language => !!lang && isLanguage(lang),
  );
  const unique = [...new Set(candidates)];
  return unique.length > 0 ? unique.join(' ') : undefined;
}
