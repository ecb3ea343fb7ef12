import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { withCarriedQuery } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { ENTRY_RETRIES, ENTRY_RETRY_DELAY_MS } from './entry-retry';
import { resolveEntryTarget, takeStoredLoyaltyRedirect } from './resolve-entry-target';
import { sessionUserOf } from '@/lib/session/session-user';

export type EntryState = { kind: 'loading' } | { kind: 'failed'; error: unknown };

/**
 * The entry route's work (docs/product/addresses-and-routes.md#screens-and-routes): follow a stored redirect, or decide between status and onboarding,
 * retrying up to ENTRY_RETRIES times ENTRY_RETRY_DELAY_MS apart; then warn 'Loyalty service not
 * responding'. `retry` starts a new round.
 */
export function useLoyaltyEntry(): { state: EntryState; retry: () => void } {
  const http = useHttp();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [round, setRound] = useState(0);
  const [state, setState] = useState<EntryState>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const go = (target: string) => navigate(withCarriedQuery(target, search), { replace: true });

    const stored = takeStoredLoyaltyRedirect();
    if (stored) {
      go(stored);
      return;
    }

    const attempt = async (retriesLeft: number) => {
      try {
        const target = await resolveEntryTarget({ http, queryClient, user: sessionUserOf(queryClient) });
        if (!cancelled) go(target);
      } catch (error) {
        if (cancelled) return;
        if (retriesLeft > 0) {
          timer = setTimeout(() => void attempt(retriesLeft - 1), ENTRY_RETRY_DELAY_MS);
          return;
        }
        // docs/product/addresses-and-routes.md#screens-and-routes's warning, reported once: in the page, where Try again is (issue 7: a toast as well
        // said it twice and covered the title).
        console.warn('Loyalty service not responding', error);
        setState({ kind: 'failed', error });
      }
    };
    void attempt(ENTRY_RETRIES);

    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // One round per mount or Retry; texts and services do not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [round]);

  const retry = useCallback(() => {
    setState({ kind: 'loading' });
    setRound((value) => value + 1);
  }, []);
  return { state, retry };
}
