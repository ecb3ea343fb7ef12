import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/lib/i18n/use-translation';
import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import { routes } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { faqQuery } from '@/lib/loyalty/api/get-faq';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { useCachedLoyaltyConsents } from '@/lib/loyalty/use-loyalty-consents';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import './loyalty-faq.css';

/** Back to the onboarding for a known non-member, else to the status (which handles non-members too). */
function useBackLink() {
  const { t } = useTranslation();
  const core = useCachedLoyaltyConsents()?.find((consent) => consent.slug === LOYALTY_CORE_CONSENT);
  return core && !core.granted
    ? { to: routes.loyalty.onboarding.build(), label: t('loyalty-back') }
    : { to: routes.loyalty.status.build(), label: t('loyalty-back-to-status') };
}

/** `/faq`: the programme's questions and answers in the customer's language. */
export function LoyaltyFaq() {
  const { t } = useTranslation();
  const http = useHttp();
  const { contentLocale } = useLoyaltyLocale();
  const faq = useQuery(faqQuery(http, contentLocale));
  const back = useBackLink();

  return (
    <LoyaltyPage title={t('loyalty-faq-title')} back={back} className="loyalty-faq" busy={faq.isPending}>
      {faq.isError ? (
        <InlineError
          message={t('loyalty-load-error')}
          error={faq.error}
          onRetry={() => void faq.refetch()}
          retrying={faq.isFetching}
        />
      ) : faq.data ? (
        faq.data.entries.length === 0 ? (
          <p className="card">{t('loyalty-faq-empty')}</p>
        ) : (
          <div className="loyalty-faq__list">
            {faq.data.entries.map((entry) => (
              <details key={entry.id} className="loyalty-faq__entry">
                <summary className="loyalty-faq__question">{entry.question}</summary>
                <p className="loyalty-faq__answer">{entry.answer}</p>
              </details>
            ))}
          </div>
        )
      ) : (
        <div className="loyalty-faq__list" aria-hidden="true">
          {[0, 1, 2, 3].map((index) => (
            <span key={index} className="loyalty-skeleton loyalty-faq__skeleton" />
          ))}
        </div>
      )}
    </LoyaltyPage>
  );
}
