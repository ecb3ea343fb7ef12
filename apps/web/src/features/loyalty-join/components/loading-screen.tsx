import { useTranslation } from '@/lib/i18n/use-translation';
import { LoadingAnimation } from '@/lib/loyalty/ui/loading-animation';
import { LoyaltyPage } from '@/lib/loyalty/ui/loyalty-page';

/** `/loading`: the loyalty loading screen (spec §2). */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <LoyaltyPage title={t('loyalty-loading-title')} busy>
      <LoadingAnimation />
    </LoyaltyPage>
  );
}
