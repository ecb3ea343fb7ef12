import { skipToken, useQuery } from '@tanstack/react-query';
import type { CustomerConsent } from '@roadpass/contracts';
import { loyaltyKeys } from './api/query-keys';
import { useCustomer } from './use-customer';

/**
 * The customer's consents as far as they are cached (the entry route or the signup loaded them); it
 * never loads them itself (ensureLoyaltyConsents does, docs/product/states.md#states-and-transitions).
 */
export function useCachedLoyaltyConsents(): CustomerConsent[] | undefined {
  const { uuid } = useCustomer();
  return useQuery<CustomerConsent[]>({ queryKey: loyaltyKeys.consents(uuid), queryFn: skipToken }).data;
}
