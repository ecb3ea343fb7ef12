import type { QueryClient } from '@tanstack/react-query';
import { loyaltyRouteOf, routes } from '@/config/routes';
import type { HttpClient } from '@/lib/http';
import { expiryForecastQuery } from '@/lib/loyalty/api/get-expiry-forecast';
import { tierDetailsQuery } from '@/lib/loyalty/api/get-tier-details';
import { tiersQuery } from '@/lib/loyalty/api/get-tiers';
import { loyaltyLocale } from '@/lib/loyalty/loyalty-locale';

/** Who is signed in and in which texts, as start-up knows it from the token before the customer loads. */
export interface StartingCustomer {
  /** The token's `sub`: the customer's uuid. */
  uuid: string;
  /** The language the texts load in (start-up's choice), e.g. de. */
  language: string;
  /** The customer's country, e.g. DE. */
  country: string;
}

/**
 * The data a page's first view shows that needs nothing but the token, asked at start beside the
 * customer (bootstrap.ts). Asked by the page itself, it waited for the customer and the page's code:
 * a round trip of its own on every start of the status page (docs/performance.md, "From the HTML to
 * the status content"). The queries are the pages' own (same keys, same freshness), so the page finds
 * them answered or under way; should start-up's guess of the language differ from the page's, the
 * page asks as before.
 */
export function prefetchPageData(
  queryClient: QueryClient,
  http: HttpClient,
  pathname: string,
  customer: StartingCustomer,
): void {
  const screen = loyaltyRouteOf(pathname);
  if (!screen) return;
  const { contentLocale, legalEntityIso } = loyaltyLocale(customer.language, customer.country);
  const details = () => void queryClient.prefetchQuery(tierDetailsQuery(http, customer.uuid));
  const tiers = () => void queryClient.prefetchQuery(tiersQuery(http, contentLocale, legalEntityIso));
  const forecast = () => void queryClient.prefetchQuery(expiryForecastQuery(http, customer.uuid));
  switch (screen) {
    // Points and tier, the tiers' thresholds, and the forecast shown under them.
    case routes.loyalty.status.name:
      details();
      tiers();
      forecast();
      break;
    case routes.loyalty.tierOverview.name:
      details();
      tiers();
      break;
    // The entry decides between the status page and the onboarding on the tier details.
    case routes.loyalty.entry.name:
      details();
      break;
  }
}
