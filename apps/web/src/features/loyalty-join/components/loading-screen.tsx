import { useTranslation } from '@/lib/i18n/use-translation';
import { LoadingAnimation } from '@/components/loyalty-page/loading-animation';
import { LoyaltyPage } from '@/components/loyalty-page/loyalty-page';

/** `/loading`: the loyalty loading screen (docs/product/addresses-and-routes.md#screens-and-routes). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <LoyaltyPage title={t('loyalty-loading-title')} busy>
      <LoadingAnimation />
    </LoyaltyPage>
  );
}
