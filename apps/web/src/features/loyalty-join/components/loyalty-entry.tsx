import { useTranslation } from '@/lib/i18n/use-translation';
import { InlineError } from '@/lib/loyalty/ui/inline-error';
import { LoadingAnimation } from '@/lib/loyalty/ui/loading-animation';
import { LoyaltyPage } from '@/lib/loyalty/ui/loyalty-page';
import { useLoyaltyEntry } from '../use-loyalty-entry';

/** `/`: decides where the customer goes (spec §2) and shows the loading screen meanwhile. */
export function LoyaltyEntry() {
  const { t } = useTranslation();
  const { state, retry } = useLoyaltyEntry();

  return (
    <LoyaltyPage title={t('loyalty-programme-name')} busy={state.kind === 'loading'}>
      {state.kind === 'failed' ? (
        <InlineError
          title={t('loyalty-entry-not-responding')}
          message={t('loyalty-entry-not-responding-text')}
          onRetry={retry}
        />
      ) : (
        <LoadingAnimation label={t('loyalty-entry-loading')} />
      )}
    </LoyaltyPage>
  );
}
