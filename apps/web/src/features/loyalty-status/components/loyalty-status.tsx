import type { ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, type LoyaltyTierDetails, type TierList, loyaltyErrorCodes } from '@roadpass/contracts';
import { Icon, TierIcon } from '@/components/tier-icon';
import { routes } from '@/config/routes';
import { hasErrorCode } from '@/lib/http';
import { formatDate, formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { tierProgress } from '@/lib/loyalty/tier-rules';
import { useTierDetails } from '@/lib/loyalty/use-tier-details';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyLink } from '@/components/loyalty-page/loyalty-link';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { ExpiryForecast } from './expiry-forecast';
import './loyalty-status.css';

/**
 * `/status`: points, tier, tier expiry and the way to the next tier (docs/product/addresses-and-routes.md#screens-and-routes),
 * then the points expiry forecast (docs/product/loyalty.md#points-expiry-forecast). `forMembers` shows under
 * a member's figures (the app puts the webview's push notification offer there).
 */
export function LoyaltyStatus({ forMembers }: { forMembers?: ReactNode }) {
  const { t } = useTranslation();
  const details = useTierDetails();
  const tiers = useTiers();
  const notMember = hasErrorCode(details.error, loyaltyErrorCodes.notAMember);
  const failed = (details.isError && !notMember) || tiers.isError;
  const retry = () => {
    if (details.isError) void details.refetch();
    if (tiers.isError) void tiers.refetch();
  };

  return (
    <LoyaltyPage
      title={t('loyalty-status-title')}
      eyebrow={t('loyalty-programme-name')}
      className="loyalty-status"
      busy={details.isPending || tiers.isPending}
    >
      {notMember ? (
        <div className="card loyalty-status__not-member">
          <p>{t('loyalty-status-not-member')}</p>
          <LoyaltyLink className="button button--primary" to={routes.loyalty.onboarding.build()}>
            {t('loyalty-status-join')}
          </LoyaltyLink>
        </div>
      ) : failed ? (
        <InlineError
          message={t('loyalty-load-error')}
          error={details.error ?? tiers.error}
          onRetry={retry}
          retrying={details.isFetching || tiers.isFetching}
        />
      ) : details.data && tiers.data ? (
        <>
          <StatusFigures details={details.data} tiers={tiers.data} />
          <ExpiryForecast tiers={tiers.data} />
          {forMembers}
        </>
      ) : (
        <StatusSkeleton />
      )}

      {/* The links show once the figures are there (or failed): shown earlier, the figures replacing
          their skeleton would push them down (a layout shift, Lighthouse CLS 0.011). */}
      {!(details.isPending || tiers.isPending) && (
        <nav aria-label={t('loyalty-status-more')}>
          <ul className="loyalty-link-list">
            <li>
              <LoyaltyLink to={routes.loyalty.tierOverview.build()}>
                {t('loyalty-link-tier-overview')}
                <Icon name="chevron-right" size="xs" />
              </LoyaltyLink>
            </li>
            <li>
              <LoyaltyLink to={routes.loyalty.history.build()}>
                {t('loyalty-link-history')}
                <Icon name="chevron-right" size="xs" />
              </LoyaltyLink>
            </li>
            <li>
              <LoyaltyLink to={routes.loyalty.faq.build()}>
                {t('loyalty-link-faq')}
                <Icon name="chevron-right" size="xs" />
              </LoyaltyLink>
            </li>
          </ul>
        </nav>
      )}
    </LoyaltyPage>
  );
}

function StatusFigures({ details, tiers }: { details: LoyaltyTierDetails; tiers: TierList }) {
  const { t } = useTranslation();
  const { formatLocale } = useLoyaltyLocale();
  const { current, next, pointsToNext, progress } = tierProgress(tiers, details.tier, details.points);
  const tierName = current?.information.title.text ?? details.tier;
  const percent = Math.round(progress * 100);
  const nextText = next
    ? t('loyalty-status-to-next-tier', {
        points: formatPoints(pointsToNext, formatLocale),
        tier: next.information.title.text,
      })
    : t('loyalty-status-top-tier');

  return (
    <div className="loyalty-status__figures">
      <div className={`card loyalty-status__tier loyalty-status__tier--${details.tier}`}>
        <TierIcon name={tierIconName(details.tier)} size="lg" />
        <div>
          <p className="loyalty-status__label">{t('loyalty-status-tier-label')}</p>
          <p className="loyalty-status__tier-name">{tierName}</p>
          {details.tierExpirationDate && (
            <p className="loyalty-status__expiry">
              {t('loyalty-status-tier-valid-until', {
                date: formatDate(details.tierExpirationDate, formatLocale),
              })}
            </p>
          )}
        </div>
      </div>

      <div className="card loyalty-status__points">
        <p className="loyalty-status__label">{t('loyalty-status-points-label')}</p>
        <p className="loyalty-status__points-value">{formatPoints(details.points, formatLocale)}</p>
        <p className="loyalty-status__next">{nextText}</p>
        {next && (
          <div
            className="loyalty-status__progress"
            role="progressbar"
            aria-label={t('loyalty-status-progress-label', { tier: next.information.title.text })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={nextText}
          >
            <span className="loyalty-status__progress-bar" style={{ width: `${percent}%` }} />
          </div>
        )}
      </div>
    </div>
  );
}

function StatusSkeleton() {
  return (
    <div className="loyalty-status__figures" aria-hidden="true">
      <span className="loyalty-skeleton loyalty-status__skeleton" />
      <span className="loyalty-skeleton loyalty-status__skeleton" />
    </div>
  );
}
