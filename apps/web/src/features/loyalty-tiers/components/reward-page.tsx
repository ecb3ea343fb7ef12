import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, loyaltyErrorCodes } from '@roadpass/contracts';
import { TierIcon } from '@/components/tier-icon';
import { routes } from '@/config/routes';
import { hasErrorCode } from '@/lib/http';
import { findReward, isUnlockedFor } from '@/lib/loyalty/tier-rules';
import { useTierDetails } from '@/lib/loyalty/use-tier-details';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyLink } from '@/components/loyalty-page/loyalty-link';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { PartnerCode } from './partner-code';
import { RewardLock } from './reward-lock';
import './tiers.css';

/** `/reward/:id`: one reward, from the tiers already loaded (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions), with its partner code. */
export function RewardPage({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const tiers = useTiers();
  const details = useTierDetails();
  const notMember = hasErrorCode(details.error, loyaltyErrorCodes.notAMember);
  const back = { to: routes.loyalty.tierOverview.build(), label: t('loyalty-back-to-tiers') };

  if (tiers.isError || (details.isError && !notMember)) {
    return (
      <LoyaltyPage title={t('loyalty-reward-title')} back={back}>
        <InlineError
          message={t('loyalty-load-error')}
          error={tiers.error ?? details.error}
          onRetry={() => {
            if (tiers.isError) void tiers.refetch();
            if (details.isError) void details.refetch();
          }}
          retrying={tiers.isFetching || details.isFetching}
        />
      </LoyaltyPage>
    );
  }
  if (!tiers.data || (!details.data && !notMember)) {
    return (
      <LoyaltyPage title={t('loyalty-reward-title')} back={back} busy>
        <span className="loyalty-skeleton reward__skeleton" aria-hidden="true" />
      </LoyaltyPage>
    );
  }

  const reward = findReward(tiers.data, slug);
  if (!reward) {
    return (
      <LoyaltyPage title={t('loyalty-reward-not-found-title')} back={back}>
        <div className="card reward__not-found">
          <p>{t('loyalty-reward-not-found-text')}</p>
          <LoyaltyLink className="button button--secondary" to={routes.loyalty.tierOverview.build()}>
            {t('loyalty-link-tier-overview')}
          </LoyaltyLink>
        </div>
      </LoyaltyPage>
    );
  }

  const unlocked = isUnlockedFor(reward.unlockedIn, details.data?.tier);
  const listings = tiers.data.flatMap((tier) => {
    const listing = tier.rewards.find((candidate) => candidate.slug === reward.slug);
    return listing ? [{ tier, benefitText: listing.benefitText }] : [];
  });

  return (
    <LoyaltyPage title={reward.title} back={back} className="reward">
      <div className={`card reward__intro reward__intro--${reward.unlockedIn}`}>
        <img className="reward__image" src={reward.image} alt="" />
        <RewardLock unlocked={unlocked} unlockedIn={reward.unlockedIn} tiers={tiers.data} />
        <p className="reward__description">{reward.description}</p>
      </div>

      {reward.partnerCode && unlocked && <PartnerCode slug={reward.slug} partnerName={reward.partnerName} />}

      <section className="card" aria-labelledby="reward-how-to">
        <h2 id="reward-how-to" className="loyalty-section-title">
          {t('loyalty-reward-how-to')}
        </h2>
        <p className="reward__how-to">{reward.howTo}</p>
      </section>

      {listings.length > 0 && (
        <section className="card" aria-labelledby="reward-benefits">
          <h2 id="reward-benefits" className="loyalty-section-title">
            {t('loyalty-reward-benefits')}
          </h2>
          <dl className="reward__benefits">
            {listings.map(({ tier, benefitText }) => (
              <div
                key={tier.slug}
                className={`reward__benefit${tier.slug === details.data?.tier ? ' reward__benefit--current' : ''}`}
              >
                <dt>
                  <TierIcon name={tierIconName(tier.slug)} size="xs" />
                  {tier.information.title.text}
                </dt>
                <dd>{benefitText}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </LoyaltyPage>
  );
}
