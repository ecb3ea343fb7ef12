import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoyaltyHistoryEntry } from '@roadpass/contracts';
import { VirtualList } from '@/components/virtual-list';
import { routes } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { selectHasMoreHistory, useLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { InlineError } from '@/lib/loyalty/ui/inline-error';
import { LoyaltyPage } from '@/lib/loyalty/ui/loyalty-page';
import { HistoryRow } from './history-row';
import './loyalty-history.css';

const entryKey = (entry: LoyaltyHistoryEntry) => entry.id;

/**
 * `/history`: the points history, 100 entries a page, "Load more" while more pages exist (spec §4).
 * Rows are virtualised so that thousands of entries keep the page smooth and the DOM small.
 */
export function LoyaltyHistory() {
  const { t } = useTranslation();
  const http = useHttp();
  const { uuid } = useCustomer();
  const { formatLocale } = useLoyaltyLocale();
  const history = useLoyaltyStore((state) => state.history);
  const hasMore = useLoyaltyStore(selectHasMoreHistory);
  const [failure, setFailure] = useState<'first' | 'more' | null>(null);

  const loadFirst = useCallback(() => {
    useLoyaltyStore
      .getState()
      .loadHistory(http, uuid)
      .catch(() => setFailure('first'));
  }, [http, uuid]);

  const retryFirst = () => {
    setFailure(null);
    loadFirst();
  };

  const loadMore = () => {
    setFailure(null);
    useLoyaltyStore
      .getState()
      .loadMoreHistory(http, uuid)
      .catch(() => setFailure('more'));
  };

  // The history is kept in the store: coming back shows what was loaded, from the top.
  useEffect(() => {
    const { loaded, loading } = useLoyaltyStore.getState().history;
    if (!loaded && !loading) loadFirst();
  }, [loadFirst]);

  const loadingFirst = !history.loaded && failure === null;
  const summary = t('loyalty-history-loaded', {
    shown: formatPoints(history.content.length, formatLocale),
    total: formatPoints(history.totalElements, formatLocale),
  });

  return (
    <LoyaltyPage
      title={t('loyalty-history-title')}
      back={{ to: routes.loyalty.status.build(), label: t('loyalty-back-to-status') }}
      className="loyalty-history"
      busy={history.loading}
    >
      {failure === 'first' ? (
        <InlineError message={t('loyalty-load-error')} onRetry={retryFirst} />
      ) : loadingFirst ? (
        <div className="loyalty-history__skeleton" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((index) => (
            <span key={index} className="loyalty-skeleton loyalty-history__skeleton-row" />
          ))}
        </div>
      ) : history.content.length === 0 ? (
        <p className="card loyalty-history__empty">{t('loyalty-history-empty')}</p>
      ) : (
        <VirtualList
          items={history.content}
          getKey={entryKey}
          estimateSize={76}
          label={t('loyalty-history-list-label')}
          className="loyalty-history__list card"
          renderItem={(entry) => <HistoryRow entry={entry} locale={formatLocale} />}
        />
      )}

      {/* Always present, so that each completed load is announced without moving focus. */}
      <p className="loyalty-history__summary" role="status" aria-atomic="true">
        {history.content.length > 0 ? summary : ''}
      </p>

      {failure === 'more' && <InlineError message={t('loyalty-load-error')} onRetry={loadMore} />}

      {history.loaded && hasMore && failure !== 'more' && (
        <div className="loyalty-actions loyalty-history__more">
          <button
            type="button"
            className="button button--secondary"
            onClick={loadMore}
            disabled={history.loading}
            aria-busy={history.loading || undefined}
          >
            {history.loading ? t('loyalty-history-loading-more') : t('loyalty-history-load-more')}
          </button>
        </div>
      )}
    </LoyaltyPage>
  );
}
