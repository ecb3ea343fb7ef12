import { apiPaths, type CustomerConsent, type CustomerConsentUpdate } from '@roadpass/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

/** PATCH one consent of the customer (docs/product/api.md#calls: one call per consent, with the legal entity id). */
export function updateCustomerConsent(
  http: HttpClient,
  uuid: string,
  slug: string,
  update: CustomerConsentUpdate,
): Promise<CustomerConsent> {
  return http.patch<CustomerConsent>(apiPaths.customerConsent(uuid, slug), update);
}

/**
 * PATCH one consent and put the saved consent in the cached list (replacing the one of its slug, or
 * added). A rejection is the caller's (a form puts a 400's violations on its fields with lib/forms).
 */
export async function saveConsent(
  queryClient: QueryClient,
  http: HttpClient,
  uuid: string,
  slug: string,
  update: CustomerConsentUpdate,
): Promise<CustomerConsent> {
  const saved = await updateCustomerConsent(http, uuid, slug, update);
  queryClient.setQueryData<CustomerConsent[]>(loyaltyKeys.consents(uuid), (consents = []) => {
    const index = consents.findIndex((consent) => consent.slug === saved.slug);
    return index === -1 ? [...consents, saved] : consents.map((c, i) => (i === index ? saved : c));
  });
  return saved;
}
