import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, HttpError } from '@/lib/http';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeFetch, jsonResponse } from '@/testing/fake-fetch';
import { loadTranslations } from './content-collection';
import { i18n } from './i18n';

const collection = (language: string, locale: string, texts: Record<string, string>) => ({
  collection: 'loyalty-program',
  locale,
  language,
  texts,
});

afterEach(async () => {
  resetAppStore();
  await i18n.changeLanguage('en');
});

describe('loadTranslations', () => {
  it('requests the normalised locale with the legal entity and activates the language', async () => {
    const server = createFakeFetch({
      'GET /api/core-web/content/contentCollection/de-DE/loyalty-program': jsonResponse(
        collection('de', 'de-DE', { 'sign-out': 'Abmelden' }),
      ),
    });
    const http = createHttpClient({ fetch: server.fetch });

    await loadTranslations({ http, queryClient: new QueryClient(), locale: 'de_DE', legalEntityIso: 'DE' });

    expect(new URL(server.requests[0]!.url).search).toBe('?legalEntity=DE');
    expect(i18n.t('sign-out')).toBe('Abmelden');
    expect(useAppStore.getState().activeLanguage).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });

  it('falls back to en-DE for an unsupported locale', async () => {
    const server = createFakeFetch({
      'GET /api/core-web/content/contentCollection/en-DE/loyalty-program': jsonResponse(
        collection('en', 'en-DE', { 'sign-out': 'Sign out' }),
      ),
    });
    const http = createHttpClient({ fetch: server.fetch });

    await loadTranslations({ http, queryClient: new QueryClient(), locale: 'xx-YY' });

    expect(server.requests).toHaveLength(1);
    expect(useAppStore.getState().activeLanguage).toBe('en');
  });

  it('caches a locale after its first load', async () => {
    const server = createFakeFetch({
      'GET /api/core-web/content/contentCollection/de-DE/loyalty-program': jsonResponse(
        collection('de', 'de-DE', {}),
      ),
      'GET /api/core-web/content/contentCollection/en-DE/loyalty-program': jsonResponse(
        collection('en', 'en-DE', {}),
      ),
    });
    const http = createHttpClient({ fetch: server.fetch });
    const queryClient = new QueryClient();
    const load = (locale: string) => loadTranslations({ http, queryClient, locale, legalEntityIso: 'DE' });

    await load('de-DE');
    await load('en-DE');
    await load('de_DE');
    await load('de-DE');

    expect(server.requests.map((r) => new URL(r.url).pathname.split('/')[5])).toEqual(['de-DE', 'en-DE']);
    expect(useAppStore.getState().activeLanguage).toBe('de');
  });

  it('rejects with the HttpError when the content service fails, and loads again next time', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = createFakeFetch({
      'GET /api/core-web/content/contentCollection/de-DE/loyalty-program': [
        jsonResponse({ status: 503, code: 'x', message: 'down' }, { status: 503 }),
        jsonResponse(collection('de', 'de-DE', {})),
      ],
    });
    const http = createHttpClient({ fetch: server.fetch });
    const queryClient = new QueryClient();

    await expect(loadTranslations({ http, queryClient, locale: 'de-DE' })).rejects.toBeInstanceOf(HttpError);
    await expect(loadTranslations({ http, queryClient, locale: 'de-DE' })).resolves.toMatchObject({
      language: 'de',
    });
  });
});
