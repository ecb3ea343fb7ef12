import { apiPaths, type CustomerConsent, type CustomerConsentList } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** GET the customer's consents (spec §7). Throws on failure; the loyalty store turns that into []. */
export async function getCustomerConsents(http: HttpClient, uuid: string): Promise<CustomerConsent[]> {
  const list = await http.get<CustomerConsentList>(apiPaths.customerConsents(uuid));
  return list.data;
}
