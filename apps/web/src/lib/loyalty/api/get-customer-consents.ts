import type { QueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  LOYALTY_CORE_CONSENT,
  type CustomerConsent,
  type CustomerConsentList,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const CONSENTS_ERROR = 'Loading loyalty consents failed';

/** GET the customer's consents (docs/product/api.md#calls). Throws on failure. */
export async function getCustomerConsents(http: HttpClient, uuid: string): Promise<CustomerConsent[]> {
  const list = await http.get<CustomerConsentList>(apiPaths.customerConsents(uuid));
  return list.data;
}

/** Whether the consents include the core loyalty consent, granted (a member of the programme). */
export const isMember = (consents: readonly CustomerConsent[]): boolean =>
  consents.some((consent) => consent.slug === LOYALTY_CORE_CONSENT && consent.granted);

/**
 * docs/product/states.md#states-and-transitions: the customer's consents are loaded unless the core loyalty consent is already among the
 * cached ones (unless forced). docs/product/errors.md#error-catalogue: a failed load is an empty list, with `failed` set.
 */
export async function ensureLoyaltyConsents(
  queryClient: QueryClient,
  http: HttpClient,
  uuid: string,
  options: { force?: boolean } = {},
): Promise<{ consents: CustomerConsent[]; failed: boolean; error?: unknown }> {
  const key = loyaltyKeys.consents(uuid);
  const cached = queryClient.getQueryData<CustomerConsent[]>(key);
  if (!options.force && cached?.some((consent) => consent.slug === LOYALTY_CORE_CONSENT)) {
    return { consents: cached, failed: false };
  }
  try {
    const consents = await queryClient.fetchQuery({
      queryKey: key,
      queryFn: () => getCustomerConsents(http, uuid),
      staleTime: 0,
      retry: false,
    });
    return { consents, failed: false };
  } catch (error) {
    console.error(CONSENTS_ERROR, error);
    queryClient.setQueryData(key, []);
    return { consents: [], failed: true, error };
  }
}
