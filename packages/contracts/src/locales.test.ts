import { describe, expect, it } from 'vitest';
import { languageOf, normaliseLocale, supportedLocales } from './locales.js';

describe('normaliseLocale (docs/product/account-rules.md#validation-rules)', () => {
  it.each([
    ['de_DE', 'de-DE'],
    ['de-de', 'de-DE'],
    ['EN-NL', 'en-NL'],
    ['hu_HU', 'hu-HU'],
    ['da-DK', 'da-DK'],
    [' fr-FR ', 'fr-FR'],
  ])('normalises %s to %s', (requested, expected) => {
    expect(normaliseLocale(requested)).toBe(expected);
  });

  it.each([
    ['a bare language to its home country', 'nl', 'nl-NL'],
    ['bare English to the default', 'en', 'en-DE'],
  ])('maps %s', (_what, requested, expected) => {
    expect(normaliseLocale(requested)).toBe(expected);
  });

  it.each(['de-NL', 'xx-YY', 'en_US', 'deutsch', '', null, undefined, '../etc', 'de-DE-x'])(
    'falls back to en-DE for %s',
    (requested) => {
      expect(normaliseLocale(requested)).toBe('en-DE');
    },
  );

  it('lists each legal entity with its own languages', () => {
    expect(supportedLocales).toContain('nl-NL');
    expect(supportedLocales).toContain('en-DK');
    expect(supportedLocales).not.toContain('de-NL');
    expect(supportedLocales).toHaveLength(16);
  });

  it('takes the language of a locale, English for anything unknown', () => {
    expect(languageOf('de_AT')).toBe('de');
    expect(languageOf('xx-YY')).toBe('en');
  });
});
