import { useQuery } from '@tanstack/react-query';
import { useHttp } from '@/lib/http';
import { useLoyaltyLocale } from './loyalty-locale';
import { tierKey, useLoyaltyStore } from './loyalty-store';

/**
 * The tiers of the customer's locale, through the loyalty store (loaded once and reused, spec §4);
 * React Query adds the loading and error states and a refetch for Retry.
 */
export function useTiers() {
  const http = useHttp();
  const { contentLocale, legalEntityIso } = useLoyaltyLocale();
  const source = { locale: contentLocale, legalEntityIso };
  return useQuery({
    queryKey: ['loyalty-tiers', tierKey(source)],
    queryFn: () => useLoyaltyStore.getState().loadTiers(http, source),
    staleTime: Infinity,
    retry: false,
  });
}
