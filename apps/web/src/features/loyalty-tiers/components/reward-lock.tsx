import { useTranslation } from '@/lib/i18n/use-translation';
import type { TierList, TierSlug } from '@roadpass/contracts';
import { Icon } from '@/components/tier-icon';

/** "Unlocked" or "Unlocked in Royal Gold": icon and text, so the state never rests on colour alone. */
export function RewardLock({
  unlocked,
  unlockedIn,
  tiers,
}: {
  unlocked: boolean;
  unlockedIn: TierSlug;
  tiers: TierList;
}) {
  const { t } = useTranslation();
  const tierName = tiers.find((tier) => tier.slug === unlockedIn)?.information.title.text ?? unlockedIn;
  return (
    <span className={`reward-lock ${unlocked ? 'reward-lock--unlocked' : 'reward-lock--locked'}`}>
      <Icon name={unlocked ? 'check' : 'lock'} size="xs" />
      {unlocked ? t('loyalty-reward-unlocked') : t('loyalty-reward-locked-in', { tier: tierName })}
    </span>
  );
}
