import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type TierList } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const TIERS_ERROR = 'Loading loyalty tiers failed';

/**
 * GET the tiers with their rewards (content, docs/product/api.md#calls), lowest first, for a locale (lang-COUNTRY) and
 * legal entity. Failures are logged and rethrown (docs/product/errors.md#error-catalogue).
 */
export async function getTiers(http: HttpClient, locale: string, legalEntityIso: string): Promise<TierList> {
  try {
    return await http.get<TierList>(apiPaths.loyaltyTiers(locale), {
      params: { legalEntity: legalEntityIso },
    });
  } catch (error) {
    console.error(TIERS_ERROR, error);
    throw error;
  }
}

/** docs/product/states.md#states-and-transitions: tiers are loaded once and reused (never stale, kept while the app runs). */
export function tiersQuery(http: HttpClient, locale: string, legalEntityIso: string) {
  return queryOptions({
    queryKey: loyaltyKeys.tiers(locale, legalEntityIso),
    queryFn: () => getTiers(http, locale, legalEntityIso),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}
