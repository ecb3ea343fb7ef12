import { useTranslation } from '@/lib/i18n/use-translation';
import { Carousel } from '@/components/carousel';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { useTiers } from '@/lib/loyalty/use-tiers';
import { DemoTierCard } from './demo-tier-card';

/** The tiers of the visitor's language (country DE unless signed in) in the carousel, with its states. */
export function DemoTiers() {
  const { t } = useTranslation();
  const { formatLocale } = useLoyaltyLocale();
  const tiers = useTiers();

  let body;
  if (tiers.isPending) {
    body = (
      <div className="demo-tiers__skeleton" role="status">
        <span className="visually-hidden">{t('loyalty-demo-loading')}</span>
        <span className="demo-tiers__skeleton-card" aria-hidden="true" />
        <span className="demo-tiers__skeleton-card" aria-hidden="true" />
      </div>
    );
  } else if (tiers.isError) {
    body = (
      <div className="card demo-tiers__problem" role="alert">
        <p>{t('loyalty-demo-error')}</p>
        <button
          type="button"
          className="button button--secondary"
          disabled={tiers.isFetching}
          onClick={() => void tiers.refetch()}
        >
          {t('loyalty-demo-retry')}
        </button>
      </div>
    );
  } else if (tiers.data.length === 0) {
    body = <p className="card demo-tiers__problem">{t('loyalty-demo-empty')}</p>;
  } else {
    const list = tiers.data;
    body = (
      <Carousel
        label={t('loyalty-demo-tiers-label')}
        showPagination
        cardLabel={(index, count) =>
          t('loyalty-demo-tier-card-label', {
            tier: list[index]?.information.title.text,
            index: index + 1,
            count,
          })
        }
      >
        {list.map((tier) => (
          <DemoTierCard key={tier.slug} tier={tier} formatLocale={formatLocale} />
        ))}
      </Carousel>
    );
  }

  return (
    <section className="loyalty-demo__section" aria-labelledby="loyalty-demo-tiers-title">
      <h2 id="loyalty-demo-tiers-title" className="loyalty-demo__section-title">
        {t('loyalty-demo-tiers-title')}
      </h2>
      {body}
    </section>
  );
}
