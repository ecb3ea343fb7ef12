import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type LoyaltyTierDetails } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const TIER_DETAILS_ERROR = 'Loading loyalty tier details failed';

/** GET the customer's points and tier (docs/product/api.md#calls). Failures are logged and rethrown (docs/product/errors.md#error-catalogue). */
export async function getTierDetails(http: HttpClient, uuid: string): Promise<LoyaltyTierDetails> {
  try {
    return await http.get<LoyaltyTierDetails>(apiPaths.loyaltyTierDetails(uuid));
  } catch (error) {
    console.error(TIER_DETAILS_ERROR, error);
    throw error;
  }
}

export function tierDetailsQuery(http: HttpClient, uuid: string) {
  return queryOptions({
    queryKey: loyaltyKeys.tierDetails(uuid),
    queryFn: () => getTierDetails(http, uuid),
    // Points change with rentals: fresh for a minute, then read again on the next visit.
    staleTime: 60_000,
    retry: false,
  });
}
