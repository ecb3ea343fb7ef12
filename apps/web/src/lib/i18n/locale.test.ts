import { describe, expect, it } from 'vitest';
import {
  countryName,
  nativeLanguageName,
  resolveCountryLanguage,
  signInUiLocales,
  type LocaleInputs,
} from './locale';

const base: LocaleInputs = {
  user: null,
  pathname: '/',
  requestedLocale: null,
  preference: null,
  isWebView: false,
};
const deUser = { language: 'de_DE', legalEntityIso: 'DE' };

describe('resolveCountryLanguage', () => {
  it('defaults to DE/en (locale en-DE) without anything to go on', () => {
    expect(resolveCountryLanguage(base)).toEqual({ country: 'DE', language: 'en', locale: 'en-DE' });
  });

  it("takes country and language from the user's language_COUNTRY", () => {
    expect(resolveCountryLanguage({ ...base, user: deUser })).toEqual({
      country: 'DE',
      language: 'de',
      locale: 'de-DE',
    });
    expect(
      resolveCountryLanguage({ ...base, user: { language: 'da_DK', legalEntityIso: 'DK' } }),
    ).toMatchObject({
      country: 'DK',
      locale: 'da-DK',
    });
  });

  it('lets the stored preference override the user language outside a webview only', () => {
    const preference = { country: 'DE', language: 'en' };
    expect(resolveCountryLanguage({ ...base, user: deUser, preference }).language).toBe('en');
    expect(resolveCountryLanguage({ ...base, user: deUser, preference, isWebView: true }).language).toBe(
      'de',
    );
  });

  it("ignores a preference for another country than the customer's", () => {
    const preference = { country: 'NL', language: 'nl' };
    expect(resolveCountryLanguage({ ...base, user: deUser, preference })).toMatchObject({
      country: 'DE',
      language: 'de',
    });
  });

  it('prefers the locale query parameter, then the address, when the country offers that language', () => {
    expect(resolveCountryLanguage({ ...base, user: deUser, requestedLocale: 'en_GB' }).language).toBe('en');
    expect(resolveCountryLanguage({ ...base, user: deUser, pathname: '/DE/en/myaccount' }).language).toBe(
      'en',
    );
    expect(resolveCountryLanguage({ ...base, user: deUser, requestedLocale: 'fr' }).language).toBe('de');
    expect(resolveCountryLanguage({ ...base, user: deUser, pathname: '/DE/hu/myaccount' }).language).toBe(
      'de',
    );
  });

  it('uses the address before sign-in data is known', () => {
    expect(resolveCountryLanguage({ ...base, pathname: '/NL/nl/myaccount' })).toEqual({
      country: 'NL',
      language: 'nl',
      locale: 'nl-NL',
    });
  });

  // Issue 7: /demo?locale=hu-HU, da_DK or nl-nl showed English to a visitor who is not signed in.
  it.each([
    ['hu-HU', 'HU', 'hu', 'hu-HU'],
    ['da_DK', 'DK', 'da', 'da-DK'],
    ['nl-nl', 'NL', 'nl', 'nl-NL'],
    ['it', 'IT', 'it', 'it-IT'],
    ['en-AT', 'AT', 'en', 'en-AT'],
    ['xx-YY', 'DE', 'en', 'en-DE'],
    ['de-HU', 'DE', 'en', 'en-DE'],
  ])('on a public page, ?locale=%s shows %s/%s (%s)', (requestedLocale, country, language, locale) => {
    expect(
      resolveCountryLanguage({ ...base, pathname: '/customer/loyalty-ui/demo', requestedLocale }),
    ).toEqual({ country, language, locale });
  });

  it("keeps a signed-in customer's country whatever locale is asked for", () => {
    const user = { language: 'de_DE', legalEntityIso: 'DE' };
    expect(resolveCountryLanguage({ ...base, user, requestedLocale: 'hu-HU' })).toMatchObject({
      country: 'DE',
      language: 'de',
    });
    expect(resolveCountryLanguage({ ...base, user, requestedLocale: 'en' })).toMatchObject({
      country: 'DE',
      language: 'en',
    });
  });

  it('falls back to the default country for an unknown one', () => {
    expect(resolveCountryLanguage({ ...base, pathname: '/XX/xx/myaccount' })).toMatchObject({
      country: 'DE',
      locale: 'en-DE',
    });
  });
});

describe('names via Intl', () => {
  it('names languages in their own language', () => {
    expect(nativeLanguageName('de')).toBe('Deutsch');
    expect(nativeLanguageName('en')).toBe('English');
    expect(nativeLanguageName('fr')).toBe('Français');
  });

  it('names countries in the display language', () => {
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('DE', 'de')).toBe('Deutschland');
  });
});

describe('signInUiLocales', () => {
  const none = { requestedLocale: null, preference: null };

  it('asks for the requested locale first, then the stored preference', () => {
    expect(signInUiLocales({ requestedLocale: 'hu-HU', preference: { country: 'AT', language: 'de' } })).toBe(
      'hu de',
    );
  });

  it('leaves the choice to the identity provider when neither names a language (issue 17: it knows the signed-out customer’s)', () => {
    expect(signInUiLocales(none)).toBeUndefined();
    expect(signInUiLocales({ ...none, requestedLocale: 'xx-YY' })).toBeUndefined();
  });

  it('ignores what it does not support', () => {
    expect(
      signInUiLocales({ ...none, requestedLocale: 'en', preference: { country: 'DE', language: 'xx' } }),
    ).toBe('en');
  });
});
