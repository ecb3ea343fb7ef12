import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type LoyaltyExpiryForecast } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

/** GET the member's expiry forecast (docs/product/loyalty.md#points-expiry-forecast). */
export const expiryForecastQuery = (http: HttpClient, uuid: string) =>
  queryOptions({
    queryKey: loyaltyKeys.expiryForecast(uuid),
    queryFn: () => http.get<LoyaltyExpiryForecast>(apiPaths.loyaltyExpiryForecast(uuid)),
    // Changes with the points: fresh for a minute like the tier details.
    staleTime: 60_000,
    retry: false,
  });
