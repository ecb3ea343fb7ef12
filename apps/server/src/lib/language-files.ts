import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { languages, type Language } from '@roadpass/contracts';

export type LanguageFiles = Record<Language, Record<string, string>>;

const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/**
 * Loads `{dir}/{lang}.json` for all eight languages and checks them: each is a flat object of
 * non-empty strings with exactly the expected keys (`keys`, or else those of en.json) and the
 * placeholders of the English text. Every problem is listed in one error, so bad content fails
 * start-up with a clear message, never a request.
 */
export async function loadLanguageFiles(
  dir: string,
  what: string,
  keys?: readonly string[],
): Promise<LanguageFiles> {
  const problems: string[] = [];
  const result = {} as LanguageFiles;
  for (const lang of languages) {
    const file = path.join(dir, `${lang}.json`);
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

  const english = result.en;
  const expected = keys ?? (english ? Object.keys(english) : []);
  for (const lang of languages) {
    const texts = result[lang];
    if (!texts) continue;
    const name = `${path.basename(dir)}/${lang}.json`;
    const missing = expected.filter((key) => !(key in texts));
    const extra = Object.keys(texts).filter((key) => !expected.includes(key));
    if (missing.length) problems.push(`${name} misses keys: ${missing.join(', ')}`);
    if (extra.length) problems.push(`${name} has unknown keys: ${extra.join(', ')}`);
    if (!english || lang === 'en') continue;
    for (const key of expected) {
      if (texts[key] === undefined || english[key] === undefined) continue;
      if (placeholdersOf(texts[key]).join() !== placeholdersOf(english[key]).join()) {
        problems.push(`${name}: "${key}" must use the placeholders of en.json`);
      }
    }
  }
  if (problems.length) throw new Error(`Invalid ${what}:\n  - ${problems.join('\n  - ')}`);
  return result;
}
