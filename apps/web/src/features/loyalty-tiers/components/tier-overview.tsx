import { useTranslation } from '@/lib/i18n/use-translation';
import { type TierSlug, loyaltyErrorCodes } from '@roadpass/contracts';
import { Carousel } from '@/components/carousel';
import { routes } from '@/config/routes';
import { hasErrorCode } from '@/lib/http';
import { useTierDetails } from '@/lib/loyalty/use-tier-details';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { TierCard } from './tier-card';
import './tiers.css';

/** `/tier-overview`: every tier with its rewards in a carousel, starting on the customer's tier. */
export function TierOverview() {
  const { t } = useTranslation();
  const tiers = useTiers();
  const details = useTierDetails();
  // A customer who is not a member (404) still sees the tiers, all of them locked.
  const notMember = hasErrorCode(details.error, loyaltyErrorCodes.notAMember);
  const failed = tiers.isError || (details.isError && !notMember);
  const customerTier: TierSlug | undefined = details.data?.tier;
  const ready = tiers.data && (details.data || notMember);

  return (
    <LoyaltyPage
      title={t('loyalty-tiers-title')}
      back={{ to: routes.loyalty.status.build(), label: t('loyalty-back-to-status') }}
      className="tier-overview"
      busy={!ready && !failed}
    >
      {failed ? (
        <InlineError
          message={t('loyalty-load-error')}
          error={tiers.error ?? details.error}
          onRetry={() => {
            if (tiers.isError) void tiers.refetch();
            if (details.isError) void details.refetch();
          }}
          retrying={tiers.isFetching || details.isFetching}
        />
      ) : ready && tiers.data ? (
        <Carousel
          label={t('loyalty-tiers-carousel-label')}
          className="tier-overview__cards"
          initialCard={Math.max(
            0,
            tiers.data.findIndex((tier) => tier.slug === customerTier),
          )}
          showPagination
          cardLabel={(index, count) =>
            t('loyalty-tiers-card-label', {
              tier: tiers.data[index]?.information.title.text ?? '',
              index: index + 1,
              count,
            })
          }
        >
          {tiers.data.map((tier) => (
            <TierCard key={tier.slug} tier={tier} tiers={tiers.data} customerTier={customerTier} />
          ))}
        </Carousel>
      ) : (
        <span className="loyalty-skeleton tier-overview__skeleton" aria-hidden="true" />
      )}
    </LoyaltyPage>
  );
}
