import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { languages, type Language } from '@roadpass/contracts';

export type TranslationSet = Record<Language, Readonly<Record<string, string>>>;

/**
 * Loads content/translations/{lang}.json for all eight languages and checks them: every file is a
 * flat object of non-empty strings with exactly the keys of en.json. Invalid content fails at start,
 * never at request time.
 */
export async function loadTranslations(contentDir: string): Promise<TranslationSet> {
  const problems: string[] = [];
  const result = {} as Record<Language, Record<string, string>>;
  for (const lang of languages) {
    const file = path.join(contentDir, 'translations', `${lang}.json`);
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
    const texts: Record<string, string> = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value !== 'string' || value.trim() === '')
        problems.push(`${file}: "${key}" must be a non-empty string`);
      else texts[key] = value;
    }
    result[lang] = texts;
  }
  const source = result.en;
  if (source) {
    const sourceKeys = new Set(Object.keys(source));
    for (const lang of languages) {
      const texts = result[lang];
      if (!texts || lang === 'en') continue;
      const missing = [...sourceKeys].filter((k) => !(k in texts));
      const extra = Object.keys(texts).filter((k) => !sourceKeys.has(k));
      if (missing.length) problems.push(`translations/${lang}.json misses keys: ${missing.join(', ')}`);
      if (extra.length)
        problems.push(`translations/${lang}.json has keys not in en.json: ${extra.join(', ')}`);
    }
  }
  if (problems.length) throw new Error(`Invalid translation content:\n  - ${problems.join('\n  - ')}`);
  return result;
}
