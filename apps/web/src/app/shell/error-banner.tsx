import { useTranslation } from '@/lib/i18n/use-translation';
import { selectShowBannerCancel, selectShowBannerConfirm, useAppStore } from '@/lib/state/app-store';
import { SupportReference } from '@/components/support-reference';
import { retryAction } from './route-retry';

/**
 * docs/product/states.md#states-and-transitions: Retry reloads the page (or, for a page whose code could not be loaded, loads it again in
 * place); Cancel only closes the banner.
 */
export function ErrorBanner({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { t } = useTranslation();
  const showCancel = useAppStore(selectShowBannerCancel);
  const showConfirm = useAppStore(selectShowBannerConfirm);
  const closeBanner = useAppStore((state) => state.closeBanner);
  const reference = useAppStore((state) => state.errorReference);

  return (
    <div className="error-banner" role="alert">
      <p className="error-banner__title">{t('error-banner-title', 'Ooops. Looks like we goofed off...')}</p>
      <p className="error-banner__description">
        {t('error-banner-description', 'An error has occured, please try again')}
      </p>
      {reference && <SupportReference reference={reference} />}
      {(showCancel || showConfirm) && (
        <div className="error-banner__actions">
          {showCancel && (
            <button type="button" className="button button--secondary" onClick={closeBanner}>
              {t('error-banner-cancel', 'Cancel')}
            </button>
          )}
          {showConfirm && (
            <button type="button" className="button button--primary" onClick={() => retryAction(reload)()}>
              {t('error-banner-confirm', 'Retry')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
