import { isLanguage, languages, type Language } from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';

/**
 * The language of a `language` query parameter (two letters or lang-COUNTRY, already checked against
 * its pattern), or `fallback` when absent. Content exists only in our eight languages, so any other is
 * refused with 400 rather than answered in a language the caller did not ask for.
 */
export function requestedLanguage(value: string | undefined, fallback: Language): Language {
  if (value === undefined) return fallback;
  const language = value.slice(0, 2).toLowerCase();
  if (isLanguage(language)) return language;
  throw ApiError.badRequest(`No content in the language "${value}"`, [
    { field: 'language', rule: 'listMatch', message: `language must be one of ${languages.join(', ')}` },
  ]);
}
