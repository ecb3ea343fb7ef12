import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import english from '../../../../../content/translations/en.json';
import german from '../../../../../content/translations/de.json';
import french from '../../../../../content/translations/fr.json';
import { rangeLengthText } from './rule-messages';

// What a customer reads for a length rule, from the real translation files (the server's 400 says the
// same: apps/server/src/modules/account/account-texts.test.ts).
const read = (language: string, min: number, max: number, betweenKey?: string) =>
  rangeLengthText((key, values) => i18n.t(key, { ...values, lng: language }), { min, max }, betweenKey);

describe('the message of a broken length rule', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
    i18n.addResourceBundle('de', 'translation', german, true, true);
    i18n.addResourceBundle('fr', 'translation', french, true, true);
  });

  it('in English: exactly, at most, or from … to', () => {
    expect(read('en', 5, 5)).toBe('Use exactly 5 characters.');
    expect(read('en', 0, 40)).toBe('Use at most 40 characters.');
    expect(read('en', 1, 40)).toBe('Use at most 40 characters.');
    expect(read('en', 2, 40)).toBe('Use 2 to 40 characters.');
    expect(read('en', 1, 1)).toBe('Use exactly 1 character.');
  });

  it('in German', () => {
    expect(read('de', 5, 5)).toBe('Verwende genau 5 Zeichen.');
    expect(read('de', 0, 40)).toBe('Verwende höchstens 40 Zeichen.');
    expect(read('de', 2, 40)).toBe('Verwende 2 bis 40 Zeichen.');
  });

  it('in French, whose singular also covers 0 and 1', () => {
    expect(read('fr', 5, 5)).toBe('Utilisez exactement 5 caractères.');
    expect(read('fr', 1, 1)).toBe('Utilisez exactement 1 caractère.');
    expect(read('fr', 0, 40)).toBe('Utilisez au maximum 40 caractères.');
  });

  it('the password page keeps its own words for a range', () => {
    expect(read('en', 10, 128, 'password-rule-rangelength')).toBe('Use between 10 and 128 characters.');
    expect(read('en', 12, 12, 'password-rule-rangelength')).toBe('Use exactly 12 characters.');
  });
});
