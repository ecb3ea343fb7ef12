import { queryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  type NewsletterLogResponse,
  type NewsletterLogRTO,
  type NewsletterUpdate,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { privacyKeys } from './query-keys';

/** GET the newsletter agreement and its history; the time parameter keeps caches from answering. */
export const newsletterQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: privacyKeys.newsletter(),
    queryFn: async (): Promise<NewsletterLogRTO> => {
      const response = await http.get<NewsletterLogResponse>(apiPaths.newsletterLog, {
        params: { t: String(Date.now()) },
      });
      return response.body.NewsletterLogRTO;
    },
    staleTime: 0,
  });

/** PUT the newsletter agreement of the agreement `id`; answers the new log. */
export async function updateNewsletter(
  http: HttpClient,
  id: string,
  update: NewsletterUpdate,
): Promise<NewsletterLogRTO> {
  const response = await http.put<NewsletterLogResponse>(apiPaths.newsletter(id), update);
  return response.body.NewsletterLogRTO;
}
