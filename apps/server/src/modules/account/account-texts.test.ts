import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  languages,
  type ApiErrorBody,
  type PersonalDataResponse,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { loadTranslations, type TranslationSet } from '../content/index.js';
import { ruleText } from './account-texts.js';
import { DEMO_PASSWORD } from '../customers/index.js';

// The texts of the 400s, from the real content files: what a customer reads for a length rule.
const contentDir = path.resolve(import.meta.dirname, '../../../../../content');
let translations: TranslationSet;
beforeAll(async () => {
  translations = await loadTranslations(contentDir);
});

const lengthText = (language: string, parameter: string) =>
  ruleText(translations, language, { field: 'addressZipCode', rule: 'rangelength', parameter });

describe('the text of a broken length rule', () => {
  it('in English: exactly, at most, or from … to', () => {
    expect(lengthText('en_GB', '5:5')).toBe('Use exactly 5 characters.');
    expect(lengthText('en_GB', '0:40')).toBe('Use at most 40 characters.');
    expect(lengthText('en_GB', '1:40')).toBe('Use at most 40 characters.');
    expect(lengthText('en_GB', '2:40')).toBe('Use 2 to 40 characters.');
    expect(lengthText('en_GB', '1:1')).toBe('Use exactly 1 character.');
  });

  it("in the customer's language (German, French with its singular for 0 and 1)", () => {
    expect(lengthText('de_DE', '5:5')).toBe('Verwende genau 5 Zeichen.');
    expect(lengthText('de_AT', '0:40')).toBe('Verwende höchstens 40 Zeichen.');
    expect(lengthText('de_DE', '2:40')).toBe('Verwende 2 bis 40 Zeichen.');
    expect(lengthText('fr_FR', '5:5')).toBe('Utilisez exactement 5 caractères.');
    expect(lengthText('fr_FR', '1:1')).toBe('Utilisez exactement 1 caractère.');
    expect(lengthText('fr_FR', '0:40')).toBe('Utilisez au maximum 40 caractères.');
  });

  it('never leaves a placeholder or says "5 to 5", in any of the eight languages', () => {
    for (const language of languages) {
      for (const parameter of ['5:5', '1:1', '0:40', '0:1', '2:40']) {
        const text = lengthText(language, parameter);
        expect(text, `${language} ${parameter}`).not.toMatch(/\{\{|\}\}/);
        expect(text, `${language} ${parameter}`).toMatch(/\d/);
      }
      expect(lengthText(language, '5:5').match(/5/g), `${language} says 5 once`).toHaveLength(1);
      expect(lengthText(language, '0:40')).not.toMatch(/\b0\b/);
    }
  });

  it('other rules keep their own text and parameters', () => {
    expect(
      ruleText(translations, 'de_DE', { field: 'addressZipCode', rule: 'zipPrefix', parameter: '08' }),
    ).toBe('Die Postleitzahl muss mit 08 beginnen, dem Code der Provinz.');
    expect(ruleText(translations, 'xx', { field: 'email', rule: 'required', parameter: 'true' })).toBe(
      'This field is required.',
    );
  });
});

describe("the profile call's 400, for a German customer", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('says "genau 5" for a German post code and "höchstens 120" for the second address line', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: DEMO_PASSWORD });
    const authorization = `Bearer ${accessToken}`;
    const current = await t.app.inject({ url: apiPaths.personalData, headers: { authorization } });
    const rules = current.json<PersonalDataResponse>().meta.metaDataList;
    expect(rules).toContainEqual({ attribute: 'addressZipCode', validator: 'rangelength', parameter: '5:5' });
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.personalData,
      headers: { authorization, [CSRF_HEADER]: current.headers[CSRF_HEADER.toLowerCase()] as string },
      payload: { addressZipCode: '1234', addressAdditionalStreet: 'x'.repeat(121) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations).toEqual(
      expect.arrayContaining([
        { field: 'addressZipCode', rule: 'rangelength', message: 'Verwende genau 5 Zeichen.' },
        {
          field: 'addressAdditionalStreet',
          rule: 'rangelength',
          message: 'Verwende höchstens 120 Zeichen.',
        },
      ]),
    );
  });
});
