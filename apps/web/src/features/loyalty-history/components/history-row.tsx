import { memo } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import type { LoyaltyHistoryEntry } from '@roadpass/contracts';
import { formatDate, formatPoints, formatSignedPoints } from '@/lib/loyalty/format';

/**
 * One history entry: what and the signed points (text, not colour alone) on the first line, when below,
 * and when the points expire on a line of its own that may wrap (at 320 px, and with wider text
 * spacing, it was cut off beside the date).
 */
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
      <span className="history-row__type">{t(`loyalty-history-type-${entry.type}`)}</span>
      <span className={`history-row__points history-row__points--${gained ? 'gain' : 'loss'}`}>
        <span aria-hidden="true">{formatSignedPoints(entry.points, locale)}</span>
        <span className="visually-hidden">
          {gained
            ? t('loyalty-history-points-added', { points: amount })
            : t('loyalty-history-points-removed', { points: amount })}
        </span>
      </span>
      <span className="history-row__when">
        <time className="history-row__date" dateTime={entry.occurredAt}>
          {formatDate(entry.occurredAt, locale)}
        </time>
        {entry.description && <span className="history-row__description">{entry.description}</span>}
      </span>
      {entry.expirationDate && (
        <span className="history-row__expiry">
          {t('loyalty-history-expires', { date: unbroken(formatDate(entry.expirationDate, locale)) })}
        </span>
      )}
    </div>
  );
});

/** A date never breaks over two lines ("2026. 03. 12." in Hungarian has spaces); the sentence may. */
const unbroken = (text: string) => text.replace(/ /g, '\u00a0');
