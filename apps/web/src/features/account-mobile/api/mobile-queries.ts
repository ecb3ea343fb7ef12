import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type MobileResponse, type MobileUpdate } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { mobileKeys } from './query-keys';

/** GET mobile/own: the number, a change waiting for its PIN, and the rules of the number. */
export const mobileQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: mobileKeys.state(),
    queryFn: () => http.get<MobileResponse>(apiPaths.mobile),
    staleTime: 0,
  });

/** PUT mobile/own: the number alone sends a PIN; with the PIN it confirms the change. */
export function updateMobile(http: HttpClient, update: MobileUpdate): Promise<MobileResponse> {
  return http.put<MobileResponse>(apiPaths.mobile, update);
}
