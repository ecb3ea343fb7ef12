import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type ApiErrorBody, type ContentCollection } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (locale: string, query = '') =>
  t.app.inject({ url: `${apiPaths.contentCollection(locale, 'loyalty-program')}${query}` });

describe('content collection (public)', () => {
  it('serves the German texts for de-DE without a token', async () => {
    const res = await get('de-DE', '?legalEntity=DE');
    expect(res.statusCode).toBe(200);
    const body = res.json<ContentCollection>();
    expect(body).toMatchObject({ collection: 'loyalty-program', locale: 'de-DE', language: 'de' });
    expect(Object.keys(body.texts).length).toBeGreaterThan(10);
    expect(body.texts['error-banner-confirm']).toBeTruthy();
  });

  it('normalises the locale and falls back to en-DE', async () => {
    expect((await get('hu_HU')).json<ContentCollection>().locale).toBe('hu-HU');
    const fallback = (await get('xx-YY')).json<ContentCollection>();
    expect(fallback.locale).toBe('en-DE');
    expect(fallback.language).toBe('en');
  });

  it('serves different texts per language', async () => {
    const en = (await get('en-DE')).json<ContentCollection>().texts;
    const da = (await get('da-DK')).json<ContentCollection>().texts;
    expect(Object.keys(da)).toEqual(Object.keys(en));
    expect(da['error-banner-confirm']).not.toBe(en['error-banner-confirm']);
  });

  it('refuses a malformed locale with 400 naming the parameter', async () => {
    const res = await get('de-DE-evil');
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations).toContainEqual(
      expect.objectContaining({ field: 'locale', rule: 'pattern' }),
    );
  });

  it('refuses a malformed legal entity with 400', async () => {
    const res = await get('de-DE', '?legalEntity=Germany');
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations?.[0]?.field).toBe('legalEntity');
  });

  it('answers an unknown collection with 404', async () => {
    const res = await t.app.inject({ url: apiPaths.contentCollection('de-DE', 'nope') });
    expect(res.statusCode).toBe(404);
  });
});
