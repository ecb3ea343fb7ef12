import { queryOptions } from '@tanstack/react-query';
import type { HttpClient } from '@/lib/http';
import { getCustomerConsents } from '@/lib/loyalty/api/get-customer-consents';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';

/**
 * The customer's answers to every consent of the legal entity, in the same cache entry the loyalty app
 * reads (so leaving or joining the programme here is what the loyalty app sees next). Always read again
 * when the page opens: a consent is the customer's word, and the cached list may be an old one (or the
 * empty list the loyalty entry keeps after a failed load, docs/product/errors.md#error-catalogue). Not read again in the background:
 * a late answer must not overwrite a switch the customer just pressed, and an error means the page
 * could not load the answers (the page shows it with a Retry).
 */
export const ownConsentsQuery = (http: HttpClient, uuid: string) =>
  queryOptions({
    queryKey: loyaltyKeys.consents(uuid),
    queryFn: () => getCustomerConsents(http, uuid),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
