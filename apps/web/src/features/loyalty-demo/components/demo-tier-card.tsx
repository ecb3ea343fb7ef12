import { useTranslation } from '@/lib/i18n/use-translation';
import { tierIconName, type Tier } from '@roadpass/contracts';
import { Icon, TierIcon } from '@/components/tier-icon';
import { formatPoints } from '@/lib/loyalty/format';

/**
 * One tier of the programme as a card: badge, name, threshold, text and the rewards that are new in it
 * (higher tiers keep the lower tiers' rewards, so listing them all would only make the cards long).
 */
export function DemoTierCard({ tier, formatLocale }: { tier: Tier; formatLocale: string }) {
  const { t } = useTranslation();
  const titleId = `loyalty-demo-tier-${tier.slug}`;
  const newRewards = tier.rewards.filter((reward) => reward.unlockedIn === tier.slug);
  return (
    <article className="card demo-tier-card" data-tier={tier.slug} aria-labelledby={titleId}>
      <div className="demo-tier-card__head">
        <TierIcon name={tierIconName(tier.slug)} size="lg" />
        <div>
          <h3 id={titleId} className="demo-tier-card__title">
            {tier.information.title.text}
          </h3>
          <p className="demo-tier-card__threshold">
            {t('loyalty-demo-tier-threshold', { points: formatPoints(tier.threshold, formatLocale) })}
          </p>
        </div>
      </div>
      {tier.information.image && (
        <img className="demo-tier-card__image" src={tier.information.image} alt="" loading="lazy" />
      )}
      <p className="demo-tier-card__text">{tier.information.text}</p>
      {newRewards.length > 0 && (
        <>
          <h4 className="demo-tier-card__rewards-title">{t('loyalty-demo-tier-rewards-title')}</h4>
          <ul className="demo-tier-card__rewards">
            {newRewards.map((reward) => (
              <li key={reward.slug}>
                <Icon name="gift" size="xs" className="demo-tier-card__reward-icon" />
                <span>
                  <strong>{reward.title}</strong> {reward.benefitText}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}
