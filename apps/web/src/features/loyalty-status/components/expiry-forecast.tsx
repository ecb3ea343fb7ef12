import { useQuery } from '@tanstack/react-query';
import type { TierList } from '@roadpass/contracts';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { expiryForecastQuery } from '@/lib/loyalty/api/get-expiry-forecast';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { ExpiryChart } from './expiry-chart';

/** "1 March": day and month, as the ledger's dates are (UTC). */
const dayAndMonth = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(iso));

/**
 * The status page's points expiry forecast (docs/product/loyalty.md#points-expiry-forecast): the sentence of
 * the nearest expiry, what keeps the tier, and the points expiring in each of the next 12 months.
 */
export function ExpiryForecast({ tiers }: { tiers: TierList }) {
  const { t } = useTranslation();
  const http = useHttp();
  const { uuid } = useCustomer();
  const { formatLocale } = useLoyaltyLocale();
  const forecast = useQuery(expiryForecastQuery(http, uuid));

  if (forecast.isError) {
    return (
      <InlineError
        message={t('loyalty-expiry-load-error')}
        error={forecast.error}
        onRetry={() => void forecast.refetch()}
        retrying={forecast.isFetching}
      />
    );
  }
  if (!forecast.data) {
    return <span className="loyalty-skeleton loyalty-expiry__skeleton" aria-hidden="true" />;
  }

  const { months, nextExpiry, tierKeep } = forecast.data;
  const tierName = (slug: string) => tiers.find((tier) => tier.slug === slug)?.information.title.text ?? slug;

  return (
    <section className="card loyalty-expiry" aria-labelledby="loyalty-expiry-title">
      <h2 id="loyalty-expiry-title" className="loyalty-expiry__title">
        {t('loyalty-expiry-title')}
      </h2>
      <p className="loyalty-expiry__next" data-testid="expiry-next">
        {nextExpiry
          ? t('loyalty-expiry-next', {
              count: nextExpiry.points,
              points: formatPoints(nextExpiry.points, formatLocale),
              date: dayAndMonth(nextExpiry.date, formatLocale),
            })
          : t('loyalty-expiry-none')}
      </p>
      {tierKeep && (
        <p className="loyalty-expiry__keep" data-testid="expiry-keep">
          {tierKeep.pointsNeeded > 0
            ? t('loyalty-expiry-keep', {
                count: tierKeep.pointsNeeded,
                points: formatPoints(tierKeep.pointsNeeded, formatLocale),
                date: dayAndMonth(tierKeep.date, formatLocale),
                tier: tierName(tierKeep.tier),
              })
            : t('loyalty-expiry-kept', {
                date: dayAndMonth(tierKeep.date, formatLocale),
                tier: tierName(tierKeep.tier),
              })}
        </p>
      )}
      <ExpiryChart
        months={months}
        locale={formatLocale}
        caption={t('loyalty-expiry-chart-caption')}
        monthHeader={t('loyalty-expiry-month')}
        pointsHeader={t('loyalty-expiry-points')}
      />
    </section>
  );
}
