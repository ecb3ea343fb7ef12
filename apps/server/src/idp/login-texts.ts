import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LANGUAGE, isLanguage, languages, type Language } from '@roadpass/contracts';

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
  'submit',
  'emailRequired',
  'passwordRequired',
  'invalidCredentials',
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
] as const;

export type TextKey = (typeof textKeys)[number];
export type Texts = Readonly<Record<TextKey, string>>;
export type LoginTexts = Readonly<Record<Language, Texts>>;

const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Loads and checks the eight language files; a missing or extra key fails start-up with a clear list. */
export async function loadLoginTexts(contentDir: string): Promise<LoginTexts> {
  const problems: string[] = [];
  const result = {} as Record<Language, Record<TextKey, string>>;
  const known = new Set<string>(textKeys);
  for (const lang of languages) {
    const file = path.join(contentDir, 'identity-provider', `${lang}.json`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      problems.push(`${file}: must be an object of key → text`);
      continue;
    }
    const texts = parsed as Record<string, unknown>;
    for (const key of Object.keys(texts)) if (!known.has(key)) problems.push(`${file}: unknown key "${key}"`);
    for (const key of textKeys) {
      const value = texts[key];
      if (typeof value !== 'string' || value.trim() === '')
        problems.push(`${file}: "${key}" must be a non-empty string`);
    }
    result[lang] = texts as Record<TextKey, string>;
  }
  const english = result.en;
  if (english) {
    for (const lang of languages) {
      const texts = result[lang];
      if (!texts || lang === 'en') continue;
      for (const key of textKeys) {
        if (typeof texts[key] !== 'string') continue;
        if (placeholdersOf(texts[key]).join() !== placeholdersOf(english[key]).join()) {
          problems.push(`identity-provider/${lang}.json: "${key}" must use the placeholders of en.json`);
        }
      }
    }
  }
  if (problems.length) throw new Error(`Invalid identity provider texts:\n  - ${problems.join('\n  - ')}`);
  return result;
}

/** The language part of a tag such as de-AT, de_AT or DE. */
function languageOfTag(tag: string): Language | undefined {
  const lang = tag.trim().split(/[-_]/)[0]?.toLowerCase() ?? '';
  return isLanguage(lang) ? lang : undefined;
}

/**
 * The page language: the first supported entry of the authorization request's `ui_locales`
 * (space separated, by preference), else the best supported Accept-Language entry, else English.
 */
export function negotiateLanguage(uiLocales: unknown, acceptLanguage: string | undefined): Language {
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(/\s+/)) {
      const lang = languageOfTag(tag);
      if (lang) return lang;
    }
  }
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
