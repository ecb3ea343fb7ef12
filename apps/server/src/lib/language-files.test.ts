import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { languages } from '@roadpass/contracts';
import { loadLanguageFiles } from './language-files.js';

/** The folders writeFiles made, removed after the file's tests. */
const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function writeFiles(edit: (lang: string, texts: Record<string, unknown>) => unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'language-files-'));
  made.push(dir);
  for (const lang of languages) {
    const texts: Record<string, unknown> = { greeting: `Hello {{name}} (${lang})`, bye: `Bye (${lang})` };
    const content = edit(lang, texts) ?? texts;
    await writeFile(
      path.join(dir, `${lang}.json`),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return dir;
}

describe('loadLanguageFiles', () => {
  it('loads all eight languages', async () => {
    const files = await loadLanguageFiles(await writeFiles(() => undefined), 'texts');
    expect(files.hu.bye).toBe('Bye (hu)');
  });

  it('lists every problem at once', async () => {
    const dir = await writeFiles((lang, texts) => {
      if (lang === 'de') delete texts.bye;
      if (lang === 'fr') texts.extra = 'x';
      if (lang === 'it') texts.bye = '  ';
      if (lang === 'es') texts.greeting = 'Hola {{nombre}}';
      if (lang === 'da') return '{ broken';
      if (lang === 'nl') return '["a list"]';
      return undefined;
    });
    const error = await loadLanguageFiles(dir, 'texts').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid texts:/);
    expect(message).toMatch(/de\.json misses keys: bye/);
    expect(message).toMatch(/fr\.json has unknown keys: extra/);
    expect(message).toMatch(/it\.json: "bye" must be a non-empty string/);
    expect(message).toMatch(/es\.json: "greeting" must use the placeholders of en\.json/);
    expect(message).toMatch(/da\.json: .*JSON/);
    expect(message).toMatch(/nl\.json: must be an object/);
  });

  it('checks against a given list of keys', async () => {
    const dir = await writeFiles(() => undefined);
    await expect(loadLanguageFiles(dir, 'texts', ['greeting', 'bye', 'title'])).rejects.toThrow(
      /misses keys: title/,
    );
  });
});
