import { useInfiniteQuery } from '@tanstack/react-query';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { activityQuery } from '../api/sessions';
import { formatMoment } from '@/lib/i18n/format-moment';
import './security.css';

/**
 * docs/product/security.md#security-activity: the customer's own security events of the retention
 * period, newest first, page by page ("Show older").
 */
export function ActivityPage() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const activity = useInfiniteQuery(activityQuery(http));
  if (activity.isPending) return <Spinner />;
  if (activity.isError)
    return (
      <LoadError
        error={activity.error}
        onRetry={() => void activity.refetch()}
        retrying={activity.isFetching}
      />
    );
  const events = activity.data.pages.flatMap((page) => page.events);
  const days = activity.data.pages[0]?.retentionDays ?? 90;
  return (
    <section className="card security" aria-labelledby="activity-title">
      <h2 id="activity-title" className="security__title">
        {t('activity-period', { days })}
      </h2>
      {events.length === 0 ? (
        <p>{t('activity-empty')}</p>
      ) : (
        <ol className="security__events">
          {events.map((event, index) => (
            <li key={`${event.occurredAt}-${index}`} className="security__event">
              <p className="security__device">
                {t(`activity-kind-${event.kind}`, { count: event.count ?? 1 })}
                {event.reason && <span> · {t(`activity-reason-${event.reason}`, { defaultValue: '' })}</span>}
                {event.passkey && <span> · {event.passkey}</span>}
              </p>
              <p className="security__meta">
                <time dateTime={event.occurredAt}>{formatMoment(event.occurredAt, i18n.language)}</time>
                {event.device && <span> · {event.device}</span>}
                {event.place && <span> · {event.place}</span>}
              </p>
            </li>
          ))}
        </ol>
      )}
      {activity.hasNextPage && (
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={activity.isFetchingNextPage || undefined}
          onClick={() => {
            if (!activity.isFetchingNextPage) void activity.fetchNextPage();
          }}
        >
          {t('activity-more')}
        </button>
      )}
    </section>
  );
}
