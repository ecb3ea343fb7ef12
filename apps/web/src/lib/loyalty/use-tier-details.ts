import { useQuery } from '@tanstack/react-query';
import { useHttp } from '@/lib/http';
import { tierDetailsQuery } from './api/get-tier-details';
import { useCustomer } from './use-customer';

/** The signed-in customer's points and tier (React Query: cached, with loading/error and refetch). */
export function useTierDetails() {
  const http = useHttp();
  const { uuid } = useCustomer();
  return useQuery(tierDetailsQuery(http, uuid));
}
