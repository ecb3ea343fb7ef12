import { useTranslation } from '@/lib/i18n/use-translation';
import { InlineError } from '@/components/loyalty-page/inline-error';
import { LoadingAnimation } from '@/components/loyalty-page/loading-animation';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';
import { useLoyaltyEntry } from '../use-loyalty-entry';

/** `/`: decides where the customer goes (docs/product/addresses-and-routes.md#screens-and-routes) and shows the loading screen meanwhile. */
export function LoyaltyEntry() {
  const { t } = useTranslation();
  const { state, retry } = useLoyaltyEntry();

  return (
    <LoyaltyPage title={t('loyalty-programme-name')} busy={state.kind === 'loading'}>
      {state.kind === 'failed' ? (
        <InlineError
          title={t('loyalty-entry-not-responding')}
          message={t('loyalty-entry-not-responding-text')}
          error={state.error}
          onRetry={retry}
        />
      ) : (
        <LoadingAnimation label={t('loyalty-entry-loading')} />
      )}
    </LoyaltyPage>
  );
}
