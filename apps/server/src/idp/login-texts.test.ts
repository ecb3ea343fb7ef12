import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages } from '@roadpass/contracts';
import { loadConfig } from '../config.js';
import { loadLoginTexts, negotiateLanguage, textKeys, tooManyAttemptsText } from './login-texts.js';

const contentDir = loadConfig({ NODE_ENV: 'test' }).contentDir;

describe('identity provider texts', () => {
  it('exist in all eight languages with every key, and are real translations', async () => {
    const texts = await loadLoginTexts(contentDir);
    for (const lang of languages) {
      expect(Object.keys(texts[lang]).sort()).toEqual([...textKeys].sort());
      if (lang !== 'en') expect(texts[lang].pageTitle).not.toBe(texts.en.pageTitle);
    }
    expect(texts.en).toMatchObject({
      emailLabel: 'E-mail',
      passwordLabel: 'Password',
      submit: 'Sign in',
      invalidCredentials: 'The e-mail or password is incorrect.',
    });
  });

  it('fail start-up with a list of what is wrong', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'idp-texts-'));
    try {
      await mkdir(path.join(dir, 'identity-provider'));
      for (const lang of languages) {
        const text = JSON.parse(
          await readFile(path.join(contentDir, 'identity-provider', `${lang}.json`), 'utf8'),
        );
        if (lang === 'da') delete text.submit;
        if (lang === 'fr') text.tooManyAttempts_other = 'Trop de tentatives.';
        await writeFile(path.join(dir, 'identity-provider', `${lang}.json`), JSON.stringify(text));
      }
      const error = await loadLoginTexts(dir).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/da\.json misses keys: submit/);
      expect((error as Error).message).toMatch(/fr\.json: "tooManyAttempts_other" must use the placeholders/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('choose the language from ui_locales, then Accept-Language, then English', () => {
    expect(negotiateLanguage('xx hu-HU de', 'fr')).toBe('hu');
    expect(negotiateLanguage(undefined, 'pt-BR, da;q=0.5, de;q=0.9')).toBe('de');
    expect(negotiateLanguage('', 'nl;q=0, it;q=0.1')).toBe('it');
    expect(negotiateLanguage(undefined, undefined)).toBe('en');
    expect(negotiateLanguage(['de'], 'pt')).toBe('en');
  });

  it('put the last signed-out customer’s language after ui_locales and before Accept-Language', () => {
    expect(negotiateLanguage(undefined, 'en-US,en;q=0.9', 'hu')).toBe('hu');
    expect(negotiateLanguage('de', 'en-US', 'hu')).toBe('de');
    // A cookie that names no language of ours is ignored.
    expect(negotiateLanguage(undefined, 'fr', 'xx')).toBe('fr');
  });

  it('use the right plural for the waiting time', async () => {
    const texts = await loadLoginTexts(contentDir);
    expect(tooManyAttemptsText(texts.en, 'en', 1)).toBe('Too many attempts, please try again in 1 minute.');
    expect(tooManyAttemptsText(texts.en, 'en', 15)).toBe(
      'Too many attempts, please try again in 15 minutes.',
    );
    expect(tooManyAttemptsText(texts.da, 'da', 2)).toBe('For mange forsøg, prøv igen om 2 minutter.');
  });
});
