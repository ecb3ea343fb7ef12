import path from 'node:path';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@roadpass/contracts';
import { loadLanguageFiles } from '../lib/language-files.js';

/**
 * Every text of the identity provider's pages. This list is the typed source of the keys; the
 * content files (content/identity-provider/{lang}.json) must have exactly these keys, checked at
 * start-up, with the same {placeholders} as English.
 */
export const textKeys = [
  'tagline',
  'pageTitle',
  'heading',
  'intro',
  'emailLabel',
  'passwordLabel',
  'showPassword',
  'hidePassword',
  'submit',
  'emailRequired',
  'passwordRequired',
  'invalidCredentials',
  'passkeyButton',
  'passkeyFailed',
  'tooManyAttempts_one',
  'tooManyAttempts_other',
  'errorTitle',
  'errorText',
  'sessionExpired',
  'backToApp',
  'logoutTitle',
  'logoutQuestion',
  'logoutConfirm',
  'logoutCancel',
  'loggedOutTitle',
  'loggedOutText',
  'signInAgain',
  'languageLabel',
  'forgotLink',
  'forgotTitle',
  'forgotIntro',
  'forgotSubmit',
  'forgotSentTitle',
  'forgotSentText',
  'backToSignIn',
  'resetTitle',
  'resetIntro',
  'newPasswordLabel',
  'resetSubmit',
  'linkInvalidTitle',
  'linkInvalidText',
  'notMeTitle',
  'notMeText',
  'notMeSubmit',
] as const;

export type TextKey = (typeof textKeys)[number];
export type Texts = Readonly<Record<TextKey, string>>;
export type LoginTexts = Readonly<Record<Language, Texts>>;

/** Loads and checks the eight language files; a missing or extra key fails start-up with a clear list. */
export async function loadLoginTexts(contentDir: string): Promise<LoginTexts> {
  const files = await loadLanguageFiles(
    path.join(contentDir, 'identity-provider'),
    'identity provider texts',
    textKeys,
  );
  return files as Record<Language, Texts>;
}

/** The language part of a tag such as de-AT, de_AT or DE. */
function languageOfTag(tag: string): Language | undefined {
  const lang = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return isLanguage(lang) ? lang : undefined;
}

/**
 * The language of the last customer who signed in or out in this browser (issue 17): the sign-in
 * page after signing out speaks it, not the browser's. A preference, not a secret: it names one of
 * the eight languages and nothing of the customer.
 */
export const LAST_LANGUAGE_COOKIE = 'roadpass_lang';
export const LAST_LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** The language part of a customer's language (`de_AT` → de), for the cookie. */
export const lastLanguageOf = (customerLanguage: string): Language | undefined =>
  languageOfTag(customerLanguage);

/**
 * The page language: the first supported entry of the authorization request's `ui_locales`
 * (space separated, by preference; the app sends one only when the address or the customer's own
 * choice on this device names a language), else the language of the customer who last signed in or
 * out here (LAST_LANGUAGE_COOKIE), else the best supported Accept-Language entry, else English.
 */
export function negotiateLanguage(
  uiLocales: unknown,
  acceptLanguage: string | undefined,
  lastLanguage?: string | undefined,
): Language {
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(/\s+/)) {
      const lang = languageOfTag(tag);
      if (lang) return lang;
    }
  }
  const last = lastLanguage ? languageOfTag(lastLanguage) : undefined;
  if (last) return last;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, index) => {
        const [tag = '', ...params] = part.split(';');
        const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return { tag, q: q === undefined ? 1 : Number(q), index };
      })
      .filter((entry) => entry.q > 0 && entry.tag.trim() !== '*')
      .sort((a, b) => b.q - a.q || a.index - b.index);
    for (const { tag } of ranked) {
      const lang = languageOfTag(tag);
      if (lang) return lang;
    }
  }
  return DEFAULT_LANGUAGE;
}

/** "Too many attempts, please try again in N minutes", in the right plural form. */
export function tooManyAttemptsText(texts: Texts, lang: Language, minutes: number): string {
  const form =
    new Intl.PluralRules(lang).select(minutes) === 'one' ? 'tooManyAttempts_one' : 'tooManyAttempts_other';
  return texts[form].replace('{count}', String(minutes));
}
