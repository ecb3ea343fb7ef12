import { queryOptions } from '@tanstack/react-query';
import { apiPaths, LOYALTY_FAQ_SLUG, type Faq } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

/** GET the loyalty programme's FAQ in a locale (content, docs/product/api.md#calls). */
export function getFaq(http: HttpClient, locale: string): Promise<Faq> {
  return http.get<Faq>(apiPaths.faq(LOYALTY_FAQ_SLUG), { params: { language: locale } });
}

export function faqQuery(http: HttpClient, locale: string) {
  return queryOptions({
    queryKey: loyaltyKeys.faq(locale),
    queryFn: () => getFaq(http, locale),
    staleTime: Infinity,
    retry: false,
  });
}
