import path from 'node:path';
import type { Language } from '@roadpass/contracts';
import { loadLanguageFiles } from '../../lib/language-files.js';

export type TranslationSet = Record<Language, Readonly<Record<string, string>>>;

/**
 * The app's translation texts: content/translations/{lang}.json for all eight languages, each with
 * exactly the keys of en.json. Invalid content fails at start, never at request time.
 */
export function loadTranslations(contentDir: string): Promise<TranslationSet> {
  return loadLanguageFiles(path.join(contentDir, 'translations'), 'translation content');
}
