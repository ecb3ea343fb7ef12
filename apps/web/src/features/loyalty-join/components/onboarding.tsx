import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, type TierList, type TierReward } from '@roadpass/contracts';
import { TierIcon } from '@/components/tier-icon';
import { routes } from '@/config/routes';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyLink } from '@/components/loyalty-page/loyalty-link';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { RewardList } from './reward-list';
import './join.css';

/** How many rewards the onboarding shows as a taste of the programme. */
const SHOWCASED_REWARDS = 4;

/** A taste of every tier: for each tier a reward it unlocks, then others, each reward once. */
function showcasedRewards(tiers: TierList): TierReward[] {
  const seen = new Set<string>();
  const picked: TierReward[] = [];
  const pick = (reward: TierReward | undefined) => {
    if (!reward || seen.has(reward.slug) || picked.length >= SHOWCASED_REWARDS) return;
    seen.add(reward.slug);
    picked.push(reward);
  };
  for (const tier of tiers) pick(tier.rewards.find((reward) => reward.unlockedIn === tier.slug));
  for (const tier of tiers) tier.rewards.forEach(pick);
  return picked;
}

/** `/onboarding`: the programme for customers who have not joined yet (docs/product/addresses-and-routes.md#screens-and-routes). */
export function Onboarding() {
  const { t } = useTranslation();
  const { formatLocale } = useLoyaltyLocale();
  const tiers = useTiers();

  return (
    <LoyaltyPage title={t('loyalty-onboarding-title')} eyebrow={t('loyalty-programme-name')} className="join">
      <div className="card join__hero">
        <p className="join__lead">{t('loyalty-onboarding-intro')}</p>
        <ol className="join__steps">
          <li>{t('loyalty-onboarding-step-earn')}</li>
          <li>{t('loyalty-onboarding-step-climb')}</li>
          <li>{t('loyalty-onboarding-step-enjoy')}</li>
        </ol>
        <div className="loyalty-actions">
          <LoyaltyLink className="button button--primary" to={routes.loyalty.signup.build()}>
            {t('loyalty-onboarding-join')}
          </LoyaltyLink>
        </div>
        <p className="join__note">{t('loyalty-onboarding-free')}</p>
      </div>

      {tiers.isError && (
        <InlineError
          message={t('loyalty-load-error')}
          error={tiers.error}
          onRetry={() => void tiers.refetch()}
          retrying={tiers.isFetching}
        />
      )}

      {tiers.data && (
        <>
          <section className="card" aria-labelledby="onboarding-tiers">
            <h2 id="onboarding-tiers" className="loyalty-section-title">
              {t('loyalty-onboarding-tiers-title')}
            </h2>
            <ul className="join__tiers">
              {tiers.data.map((tier) => (
                <li key={tier.slug} className="join__tier">
                  <TierIcon name={tierIconName(tier.slug)} size="md" />
                  <span className="join__tier-name">{tier.information.title.text}</span>
                  <span className="join__tier-threshold">
                    {t('loyalty-tier-threshold', { points: formatPoints(tier.threshold, formatLocale) })}
                  </span>
                </li>
              ))}
            </ul>
          </section>

          <section className="card" aria-labelledby="onboarding-rewards">
            <h2 id="onboarding-rewards" className="loyalty-section-title">
              {t('loyalty-onboarding-rewards-title')}
            </h2>
            <RewardList rewards={showcasedRewards(tiers.data)} />
          </section>
        </>
      )}
      {tiers.isPending && <span className="loyalty-skeleton join__skeleton" aria-hidden="true" />}

      <ul className="loyalty-link-list">
        <li>
          <LoyaltyLink to={routes.loyalty.faq.build()}>{t('loyalty-onboarding-faq')}</LoyaltyLink>
        </li>
      </ul>
    </LoyaltyPage>
  );
}
