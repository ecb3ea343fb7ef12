import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { routes } from '@/config/routes';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { DemoTiers } from './demo-tiers';
import './loyalty-demo.css';

/** /demo (docs/product/addresses-and-routes.md#screens-and-routes, no login): the programme for prospective members, its tiers and the way in. */
export function LoyaltyDemo() {
  const { t } = useTranslation();
  // The way in shows once the tiers are there (or failed): shown earlier, the carousel replacing its
  // skeleton would push it down the page (a layout shift, Lighthouse CLS 0.089).
  const tiersSettled = !useTiers().isPending;

  useEffect(() => {
    document.title = `${t('loyalty-demo-title')} · ${t('app-name')}`;
  }, [t]);

  return (
    <div className="page loyalty-demo">
      <header className="loyalty-demo__header">
        <h1 className="loyalty-demo__title">{t('loyalty-demo-title')}</h1>
        <p className="loyalty-demo__lead">{t('loyalty-demo-intro')}</p>
      </header>
      <DemoTiers />
      {tiersSettled && (
        <section className="card loyalty-demo__cta" aria-labelledby="loyalty-demo-cta-title">
          <h2 id="loyalty-demo-cta-title" className="loyalty-demo__section-title">
            {t('loyalty-demo-cta-title')}
          </h2>
          <p>{t('loyalty-demo-cta-text')}</p>
          {/* A page load: start-up signs the visitor in, then the programme's start decides. */}
          <a className="button button--primary" href={routes.loyalty.entry.href()}>
            {t('loyalty-demo-cta-button')}
          </a>
        </section>
      )}
    </div>
  );
}
