import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type PaymentProfile, type PaymentProfilesResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** The payment page's query keys, written once. */
export const paymentKeys = {
  all: ['account', 'payment'] as const,
  profiles: () => [...paymentKeys.all, 'profiles'] as const,
};

/** GET the customer's payment profiles (cards and SEPA accounts), the default one first. */
export const paymentProfilesQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: paymentKeys.profiles(),
    queryFn: async (): Promise<PaymentProfile[]> => {
      const response = await http.get<PaymentProfilesResponse>(apiPaths.paymentProfiles);
      return [...response.body.paymentProfiles].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },
  });
