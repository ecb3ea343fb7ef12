import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiPaths, normaliseLocale, type ContentCollection } from '@roadpass/contracts';
import { CONTENT_COLLECTION_LOYALTY } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { applyTranslations } from './i18n';

export const CONTENT_COLLECTION_ERROR = 'Failed to load content collection from a content management service';

/** The texts' query keys, written once (each feature's and shared area's keys live in one place). */
export const contentKeys = {
  all: ['content'] as const,
  collection: (locale: string, legalEntityIso: string | null) =>
    [...contentKeys.all, 'collection', locale, legalEntityIso] as const,
};

/** The translation content of one locale (a public call); cached for the session after the first load. */
export function contentCollectionQuery(http: HttpClient, locale: string, legalEntityIso?: string) {
  const normalised = normaliseLocale(locale);
  return queryOptions({
    queryKey: contentKeys.collection(normalised, legalEntityIso ?? null),
    queryFn: () =>
      http.publicRequest<ContentCollection>({
        url: apiPaths.contentCollection(normalised, CONTENT_COLLECTION_LOYALTY),
        params: { legalEntity: legalEntityIso },
      }),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

export interface LoadTranslationsArgs {
  http: HttpClient;
  queryClient: QueryClient;
  /** lang-COUNTRY or lang_COUNTRY; normalised with the contracts' normaliseLocale (fallback en-DE). */
  locale: string;
  legalEntityIso?: string;
}

/** Loads (or takes from the cache) the collection of a locale and makes it the active language. */
export async function loadTranslations({
  http,
  queryClient,
  locale,
  legalEntityIso,
}: LoadTranslationsArgs): Promise<ContentCollection> {
  const collection = await queryClient.fetchQuery(contentCollectionQuery(http, locale, legalEntityIso));
  await applyTranslations(collection);
  return collection;
}
