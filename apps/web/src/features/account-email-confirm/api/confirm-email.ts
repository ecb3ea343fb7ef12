import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type EmailConfirmation, type EmailConfirmationResult } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { emailConfirmKeys } from './query-keys';

/**
 * POST (no login) the token of the link sent to the new address. Held as a query so that opening the
 * page confirms once (never again on a re-render or a remount), and is never retried.
 */
export const confirmEmailQuery = (http: HttpClient, token: string) =>
  queryOptions({
    queryKey: emailConfirmKeys.confirm(token),
    queryFn: () => {
      const body: EmailConfirmation = { token };
      return http.publicRequest<EmailConfirmationResult>({
        url: apiPaths.emailConfirmation,
        method: 'POST',
        data: body,
      });
    },
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
