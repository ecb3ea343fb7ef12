import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type PaymentProfile, type PaymentProfilesResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { paymentKeys } from './query-keys';

/** GET the customer's payment profiles (cards and SEPA accounts), the default one first. */
export const paymentProfilesQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: paymentKeys.profiles(),
    queryFn: async (): Promise<PaymentProfile[]> => {
      const response = await http.get<PaymentProfilesResponse>(apiPaths.paymentProfiles);
      return [...response.body.paymentProfiles].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },
  });
