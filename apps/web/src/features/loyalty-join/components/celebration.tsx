import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, tierSlugs } from '@roadpass/contracts';
import { TierIcon } from '@/components/tier-icon';
import { routes } from '@/config/routes';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { LoyaltyLink } from '@/components/loyalty-page/loyalty-link';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { RewardList } from './reward-list';
import './join.css';

/** Everybody starts in the entry tier (docs/product/loyalty.md#loyalty-rules). */
const ENTRY_TIER = tierSlugs[0];

/** `/celebration`: shown right after joining (docs/product/addresses-and-routes.md#screens-and-routes). */
export function Celebration() {
  const { t } = useTranslation();
  const tiers = useTiers();
  const entryTier = tiers.data?.find((tier) => tier.slug === ENTRY_TIER);

  return (
    <LoyaltyPage title={t('loyalty-celebration-title')} className="join join--celebration">
      <div className="card join__celebration">
        <span className="join__confetti" aria-hidden="true" />
        <TierIcon name={tierIconName(ENTRY_TIER)} size="lg" />
        <p className="join__lead">{t('loyalty-celebration-member')}</p>
        {entryTier && (
          <>
            <p className="join__tier-name">
              {t('loyalty-celebration-tier', { tier: entryTier.information.title.text })}
            </p>
            <p className="join__tier-text">{entryTier.information.text}</p>
          </>
        )}
      </div>

      {entryTier && entryTier.rewards.length > 0 && (
        <section className="card" aria-labelledby="celebration-benefits">
          <h2 id="celebration-benefits" className="loyalty-section-title">
            {t('loyalty-celebration-benefits-title')}
          </h2>
          <RewardList rewards={entryTier.rewards} />
        </section>
      )}

      <div className="loyalty-actions">
        <LoyaltyLink className="button button--primary" to={routes.loyalty.status.build()}>
          {t('loyalty-celebration-next')}
        </LoyaltyLink>
      </div>
    </LoyaltyPage>
  );
}
