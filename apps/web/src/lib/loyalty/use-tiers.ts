import { useQuery } from '@tanstack/react-query';
import { useHttp } from '@/lib/http';
import { tiersQuery } from './api/get-tiers';
import { useLoyaltyLocale } from './loyalty-locale';

/** The tiers of the customer's locale: loaded once and reused (docs/product/states.md#states-and-transitions), with loading, error and Retry. */
export function useTiers() {
  const http = useHttp();
  const { contentLocale, legalEntityIso } = useLoyaltyLocale();
  return useQuery(tiersQuery(http, contentLocale, legalEntityIso));
}
