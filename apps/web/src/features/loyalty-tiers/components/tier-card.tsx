import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, type Tier, type TierList, type TierSlug } from '@roadpass/contracts';
import { Icon, TierIcon } from '@/components/tier-icon';
import { routes } from '@/config/routes';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { isUnlockedFor } from '@/lib/loyalty/tier-rules';
import { LoyaltyLink } from '@/components/loyalty-page/loyalty-link';
import { RewardLock } from './reward-lock';

interface TierCardProps {
  tier: Tier;
  tiers: TierList;
  /** The customer's tier; undefined for somebody who is not a member. */
  customerTier: TierSlug | undefined;
}

/** One tier in the overview: badge, name, threshold, information and its rewards. */
export function TierCard({ tier, tiers, customerTier }: TierCardProps) {
  const { t } = useTranslation();
  const { formatLocale } = useLoyaltyLocale();
  const headingId = `tier-${tier.slug}`;
  const isCustomerTier = tier.slug === customerTier;

  return (
    <article className={`tier-card tier-card--${tier.slug}`} aria-labelledby={headingId}>
      <header className="tier-card__header">
        <TierIcon name={tierIconName(tier.slug)} size="lg" />
        <div>
          <h2 id={headingId} className="tier-card__name">
            {tier.information.title.text}
          </h2>
          <p className="tier-card__threshold">
            {t('loyalty-tier-threshold', { points: formatPoints(tier.threshold, formatLocale) })}
          </p>
          {isCustomerTier && <p className="tier-card__badge">{t('loyalty-tiers-your-tier')}</p>}
        </div>
      </header>
      <img className="tier-card__image" src={tier.information.image} alt="" loading="lazy" />
      <p className="tier-card__text">{tier.information.text}</p>

      <h3 className="tier-card__rewards-title">{t('loyalty-tiers-rewards-title')}</h3>
      <ul className="tier-card__rewards">
        {tier.rewards.map((reward) => {
          const unlocked = isUnlockedFor(reward.unlockedIn, customerTier);
          return (
            <li key={reward.slug}>
              <LoyaltyLink
                className={`tier-reward${unlocked ? '' : ' tier-reward--locked'}`}
                to={routes.loyalty.reward.build(reward.slug)}
                draggable={false}
              >
                <span className="tier-reward__body">
                  <span className="tier-reward__title">{reward.title}</span>
                  <span className="tier-reward__benefit">{reward.benefitText}</span>
                  <RewardLock unlocked={unlocked} unlockedIn={reward.unlockedIn} tiers={tiers} />
                </span>
                <Icon name="chevron-right" size="xs" />
              </LoyaltyLink>
            </li>
          );
        })}
      </ul>
    </article>
  );
}
