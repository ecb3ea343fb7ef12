import { lazy, Suspense, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useHttp } from '@/lib/http';
import { useSessionUser } from '@/lib/session/session-user';
import { deletionQuery } from '../api/deletion-query';

// Loaded only when a deletion is scheduled: every other start keeps the first-load budget.
const DeletionNotice = lazy(() => import('./deletion-notice'));

/**
 * docs/product/data-rights.md#close-my-account: while a deletion is scheduled, signing in leads to
 * "Your account will be deleted on …" with "Keep my account" first, whatever page was asked for (the
 * account home, the loyalty app, a deep link; in the webview too). The app wraps every route in it;
 * `open` lets through the pages that work without signing in (the links of e-mails). Start-up asks
 * for the status beside the customer, so the guard rarely waits; while it does, nothing shows
 * (never the page behind it), and when the answer fails, the page shows as usual. "Keep my account"
 * puts the cancelled status into the cache, and the page asked for appears.
 */
export function DeletionGuard({ open, children }: { open: boolean; children: ReactNode }) {
  const http = useHttp();
  const user = useSessionUser();
  const guarded = user !== null && !open;
  // Start-up asks beside the customer (bootstrap.ts); the guard takes that answer rather than asking
  // again as it mounts (it did, once per start). The close-account page still asks afresh.
  const status = useQuery({ ...deletionQuery(http), enabled: guarded, refetchOnMount: false });
  if (!guarded) return <>{children}</>;
  // Nothing while it asks, start-up's answer having failed included (a refused token, renewed since).
  if (status.isPending || (status.isError && status.isFetching)) return null;
  const scheduledFor = status.data?.deletion?.scheduledFor;
  if (!scheduledFor) return <>{children}</>;
  return (
    <Suspense fallback={null}>
      <DeletionNotice scheduledFor={scheduledFor} />
    </Suspense>
  );
}
