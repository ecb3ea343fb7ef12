import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { deletionQuery } from '../api/data-rights';
import { DeletionScheduled } from './close-account';

/**
 * docs/product/data-rights.md#close-my-account: while a deletion is scheduled, the account home shows
 * "Your account will be deleted on …" with "Keep my account" instead of itself. While the answer is
 * on its way, or when it fails, the page shows as usual.
 */
export function DeletionGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const http = useHttp();
  const status = useQuery(deletionQuery(http));
  const scheduledFor = status.data?.deletion?.scheduledFor;
  if (!scheduledFor) return <>{children}</>;
  return (
    <section className="page" aria-labelledby="deletion-guard-title">
      <h1 id="deletion-guard-title">{t('close-title')}</h1>
      <DeletionScheduled scheduledFor={scheduledFor} />
    </section>
  );
}
