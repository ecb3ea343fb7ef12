import { useTranslation } from 'react-i18next';
import { iconSizes, tierIconNames, type IconSize, type TierIconName } from '@roadpass/contracts';
import { TierIcon } from '@/components/tier-icon';

/** Translation keys of the tier icon names (written out so every key can be found in the code). */
const tierIconLabels: Record<TierIconName, string> = {
  generic: 'loyalty-demo-tier-generic',
  'sky blue': 'loyalty-demo-tier-sky-blue',
  'ocean silver': 'loyalty-demo-tier-ocean-silver',
  'royal gold': 'loyalty-demo-tier-royal-gold',
  'sapphire diamond': 'loyalty-demo-tier-sapphire-diamond',
};

const sizes = Object.keys(iconSizes) as IconSize[];

/** Every tier icon in every size of spec §9, with its name and size. */
export function DemoIcons() {
  const { t } = useTranslation();
  return (
    <section className="loyalty-demo__section" aria-labelledby="loyalty-demo-icons-title">
      <h2 id="loyalty-demo-icons-title" className="loyalty-demo__section-title">
        {t('loyalty-demo-icons-title')}
      </h2>
      <p className="loyalty-demo__lead">{t('loyalty-demo-icons-intro')}</p>
      <ul className="card demo-icons">
        {tierIconNames.map((name) => (
          <li key={name} className="demo-icons__tier">
            <h3 className="demo-icons__name">{t(tierIconLabels[name])}</h3>
            <ul className="demo-icons__sizes">
              {sizes.map((size) => (
                <li key={size} className="demo-icons__size">
                  <TierIcon name={name} size={size} />
                  <span className="demo-icons__size-label">
                    {t('loyalty-demo-icon-size', { size, pixels: iconSizes[size] })}
                  </span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
