import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages } from '@roadpass/contracts';

// A path string, not a URL: under jsdom the global URL is not the one node:fs accepts.
const directory = resolve(import.meta.dirname, '../../../../../content/translations');
const read = (language: string) =>
  JSON.parse(readFileSync(resolve(directory, `${language}.json`), 'utf8')) as Record<string, unknown>;
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = read('en');
const englishKeys = Object.keys(english).sort();

describe('content/translations', () => {
  it.each(languages.filter((language) => language !== 'en'))(
    '%s.json has exactly the keys of en.json',
    (language) => {
      expect(Object.keys(read(language)).sort()).toEqual(englishKeys);
    },
  );

  it.each([...languages])('%s.json has no empty values and keeps the placeholders of en.json', (language) => {
    const texts = read(language);
    for (const [key, value] of Object.entries(texts)) {
      expect(typeof value === 'string' && value.trim() !== '', `${language}: ${key} is empty`).toBe(true);
      expect(placeholders(value as string), `${language}: ${key} placeholders`).toEqual(
        placeholders(english[key] as string),
      );
    }
  });

  it('are real translations, not copies of English', () => {
    for (const language of languages.filter((l) => l !== 'en')) {
      const texts = read(language);
      expect(texts['sign-out'], language).not.toBe(english['sign-out']);
      expect(texts['language-label'], language).not.toBe(english['language-label']);
    }
  });
});
