import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import type { LoyaltyHistoryEntry } from '@roadpass/contracts';
import { VirtualList } from '@/components/virtual-list';
import { routes } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { historyQuery } from '@/lib/loyalty/api/get-history-page';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { HistoryRow } from './history-row';
import './loyalty-history.css';

const entryKey = (entry: LoyaltyHistoryEntry) => entry.id;

/**
 * `/history`: the points history, 100 entries a page, "Load more" while more pages exist (docs/product/states.md#states-and-transitions).
 * Rows are virtualised so that thousands of entries keep the page smooth and the DOM small.
 */
export function LoyaltyHistory() {
  const { t } = useTranslation();
  const http = useHttp();
  const { uuid } = useCustomer();
  const { formatLocale } = useLoyaltyLocale();
  // Kept in the one cache: coming back shows what was loaded, from the top.
  const history = useInfiniteQuery(historyQuery(http, uuid));
  const content = useMemo(() => (history.data?.pages ?? []).flatMap((page) => page.content), [history.data]);
  const totalElements = history.data?.pages.at(-1)?.totalElements ?? 0;
  const loadingMore = history.isFetchingNextPage;

  const loadMore = () => {
    // While a page loads the button stays focusable (aria-disabled): the focus is not lost.
    if (!loadingMore) void history.fetchNextPage();
  };

  const summary = t('loyalty-history-loaded', {
    shown: formatPoints(content.length, formatLocale),
    total: formatPoints(totalElements, formatLocale),
  });
  const firstFailed = history.isError && !history.data;
  const moreFailed = history.isFetchNextPageError;

  return (
    <LoyaltyPage
      title={t('loyalty-history-title')}
      back={{ to: routes.loyalty.status.build(), label: t('loyalty-back-to-status') }}
      className="loyalty-history"
      busy={history.isFetching}
    >
      {firstFailed ? (
        <InlineError
          message={t('loyalty-load-error')}
          error={history.error}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : history.isPending ? (
        <div className="loyalty-history__skeleton" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((index) => (
            <span key={index} className="loyalty-skeleton loyalty-history__skeleton-row" />
          ))}
        </div>
      ) : content.length === 0 ? (
        <p className="card loyalty-history__empty">{t('loyalty-history-empty')}</p>
      ) : (
        <VirtualList
          items={content}
          getKey={entryKey}
          estimateSize={76}
          label={t('loyalty-history-list-label')}
          className="loyalty-history__list card"
          renderItem={(entry) => <HistoryRow entry={entry} locale={formatLocale} />}
        />
      )}

      {/* Always present, so that each completed load is announced without moving focus. */}
      <p className="loyalty-history__summary" role="status" aria-atomic="true">
        {content.length > 0 ? summary : ''}
      </p>

      {moreFailed && (
        <InlineError message={t('loyalty-load-error')} error={history.error} onRetry={loadMore} />
      )}

      {history.hasNextPage && !moreFailed && (
        <div className="loyalty-actions loyalty-history__more">
          <button
            type="button"
            className="button button--secondary"
            onClick={loadMore}
            aria-disabled={loadingMore || undefined}
            aria-busy={loadingMore || undefined}
          >
            {loadingMore ? t('loyalty-history-loading-more') : t('loyalty-history-load-more')}
          </button>
        </div>
      )}
    </LoyaltyPage>
  );
}
