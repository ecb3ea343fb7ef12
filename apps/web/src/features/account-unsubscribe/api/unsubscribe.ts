import { apiPaths, type UnsubscribeLookup } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** DELETE (no login): unsubscribes the newsletter of the token; answers the address it was for. */
export function unsubscribe(http: HttpClient, token: string): Promise<UnsubscribeLookup> {
  return http.publicRequest<UnsubscribeLookup>({ url: apiPaths.unsubscribe(token), method: 'DELETE' });
}
