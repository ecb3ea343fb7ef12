import { apiPaths, type CustomerConsent, type CustomerConsentUpdate } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** PATCH one consent of the customer (spec §7: one call per consent, with the legal entity id). */
export function updateCustomerConsent(
  http: HttpClient,
  uuid: string,
  slug: string,
  update: CustomerConsentUpdate,
): Promise<CustomerConsent> {
  return http.patch<CustomerConsent>(apiPaths.customerConsent(uuid, slug), update);
}
