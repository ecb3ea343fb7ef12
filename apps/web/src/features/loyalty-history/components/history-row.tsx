import { memo } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import type { LoyaltyHistoryEntry } from '@roadpass/contracts';
import { formatDate, formatPoints, formatSignedPoints } from '@/lib/loyalty/format';

/** One history entry: what, when, the signed points (text, not colour alone) and when they expire. */
export const HistoryRow = memo(function HistoryRow({
  entry,
  locale,
}: {
  entry: LoyaltyHistoryEntry;
  locale: string;
}) {
  const { t } = useTranslation();
  const gained = entry.points >= 0;
  const amount = formatPoints(Math.abs(entry.points), locale);
  return (
    <div className="history-row">
      <div className="history-row__what">
        <span className="history-row__type">{t(`loyalty-history-type-${entry.type}`)}</span>
        <time className="history-row__date" dateTime={entry.occurredAt}>
          {formatDate(entry.occurredAt, locale)}
        </time>
        {entry.description && <span className="history-row__description">{entry.description}</span>}
      </div>
      <div className="history-row__amount">
        <span className={`history-row__points history-row__points--${gained ? 'gain' : 'loss'}`}>
          <span aria-hidden="true">{formatSignedPoints(entry.points, locale)}</span>
          <span className="visually-hidden">
            {gained
              ? t('loyalty-history-points-added', { points: amount })
              : t('loyalty-history-points-removed', { points: amount })}
          </span>
        </span>
        {entry.expirationDate && (
          <span className="history-row__expiry">
            {t('loyalty-history-expires', { date: formatDate(entry.expirationDate, locale) })}
          </span>
        )}
      </div>
    </div>
  );
});
