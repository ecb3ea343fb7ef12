import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type UnsubscribeLookup } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { unsubscribeKeys } from './query-keys';

/** GET (no login) the e-mail address an unsubscribe token belongs to. */
export const unsubscribeLookupQuery = (http: HttpClient, token: string) =>
  queryOptions({
    queryKey: unsubscribeKeys.lookup(token),
    queryFn: () => http.publicRequest<UnsubscribeLookup>({ url: apiPaths.unsubscribeLookup(token) }),
    retry: false,
    staleTime: Infinity,
  });
