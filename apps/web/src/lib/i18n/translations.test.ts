import { describe, expect, it, vi } from 'vitest';
import { Translations } from './i18n';

function english() {
  const texts = new Translations('en');
  texts.addResourceBundle('en', 'translation', {
    greeting: 'Hello {{name}}',
    'points-left_one': '{{count}} point left',
    'points-left_other': '{{count}} points left',
    empty: '',
  });
  return texts;
}

describe('Translations', () => {
  it('fills placeholders and answers the key itself when it has no text', () => {
    const texts = english();
    expect(texts.t('greeting', { name: 'Ana' })).toBe('Hello Ana');
    expect(texts.t('missing')).toBe('missing');
    expect(texts.t('empty')).toBe('empty');
  });

  it('falls back to the default, with its placeholders filled, and to the next key of a list', () => {
    const texts = english();
    expect(texts.t('missing', 'Default')).toBe('Default');
    expect(texts.t('missing', 'Fields: {{labels}}', { labels: 'Name, E-mail' })).toBe('Fields: Name, E-mail');
    expect(texts.t('missing', { defaultValue: '{{n}} left', n: 3 })).toBe('3 left');
    expect(texts.t(['missing', 'greeting'], { name: 'Bo' })).toBe('Hello Bo');
  });

  it('picks the plural form of the language from the count, and the plain key without forms', () => {
    const texts = english();
    expect(texts.t('points-left', { count: 1 })).toBe('1 point left');
    expect(texts.t('points-left', { count: 5 })).toBe('5 points left');
    expect(texts.t('greeting', { count: 2, name: 'Ana' })).toBe('Hello Ana');
    // French says "1 000 000" with the form "many", which these texts do not have: "other" is used.
    texts.addResourceBundle('fr', 'translation', {
      'points-left_one': '{{count}} point',
      'points-left_other': '{{count}} points',
    });
    expect(texts.t('points-left', { count: 1_000_000, lng: 'fr' })).toBe('1000000 points');
    expect(texts.t('points-left', { count: 0, lng: 'fr' })).toBe('0 point');
  });

  it('reads another language on request and follows a language change, telling its listeners', async () => {
    const texts = english();
    texts.addResourceBundle('de', 'translation', { greeting: 'Hallo {{name}}' });
    const listener = vi.fn();
    texts.subscribe(listener);
    expect(texts.t('greeting', { name: 'Ana', lng: 'de' })).toBe('Hallo Ana');
    const before = texts.version;
    await texts.changeLanguage('de');
    expect(texts.language).toBe('de');
    expect(texts.t('greeting', { name: 'Ana' })).toBe('Hallo Ana');
    expect(texts.exists('greeting')).toBe(true);
    expect(texts.exists('points-left')).toBe(false);
    expect(texts.version).toBeGreaterThan(before);
    expect(listener).toHaveBeenCalled();
  });

  it('keeps texts it has when added without overwrite, and forgets a removed language', () => {
    const texts = english();
    texts.addResourceBundle('en', 'translation', { greeting: 'Hi', extra: 'Extra' }, true, false);
    expect(texts.t('greeting', { name: 'Ana' })).toBe('Hello Ana');
    expect(texts.t('extra')).toBe('Extra');
    texts.removeResourceBundle('en', 'translation');
    expect(texts.t('greeting')).toBe('greeting');
  });
});
