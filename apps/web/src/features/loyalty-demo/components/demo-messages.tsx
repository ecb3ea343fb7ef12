import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/tier-icon';
import { useAppStore } from '@/lib/state/app-store';

/**
 * The app's two ways of telling the customer something: the error banner (with the error page and
 * overlay, set together as spec §4 says; its Retry reloads the page) and a toast that closes itself.
 */
export function DemoMessages() {
  const { t } = useTranslation();
  return (
    <section className="loyalty-demo__section" aria-labelledby="loyalty-demo-messages-title">
      <h2 id="loyalty-demo-messages-title" className="loyalty-demo__section-title">
        {t('loyalty-demo-messages-title')}
      </h2>
      <div className="card demo-messages">
        <p className="loyalty-demo__lead">{t('loyalty-demo-messages-intro')}</p>
        <div className="demo-messages__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() =>
              useAppStore.getState().addToast({ message: t('loyalty-demo-toast-message'), type: 'success' })
            }
          >
            <Icon name="check" size="xs" />
            {t('loyalty-demo-show-toast')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => useAppStore.getState().setError(true)}
          >
            <Icon name="info" size="xs" />
            {t('loyalty-demo-show-banner')}
          </button>
        </div>
        <p className="demo-messages__note">{t('loyalty-demo-banner-note')}</p>
      </div>
    </section>
  );
}
