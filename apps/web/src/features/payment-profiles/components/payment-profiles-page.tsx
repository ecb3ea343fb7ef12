import { useEffect } from 'react';
import { routes } from '@/config/routes';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useAppStore } from '@/lib/state/app-store';
import './payment-profiles-page.css';

/**
 * The target of the webview payment redirect (docs/product/addresses-and-routes.md#screens-and-routes). Inside the native app the host catches this
 * address and shows its own payment screen, so the page shows only when it did not: it says so and
 * goes back. In a browser (an old link, the payment marker) it says where payment methods are changed,
 * with the way to the account. Either way in the app's frame and the customer's language (issue 17).
 */
export function PaymentProfilesPage() {
  const { t } = useTranslation();
  const isWebView = useAppStore((state) => state.isWebView);
  const title = t('payment-profiles-title', 'Payment methods');

  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [t, title]);

  return (
    <section className="page card" aria-labelledby="payment-profiles-title">
      <h1 id="payment-profiles-title" className="payment-profiles__title">
        {title}
      </h1>
      <p>{t(isWebView ? 'payment-profiles-webview-text' : 'payment-profiles-text')}</p>
      <p>
        {isWebView ? (
          <button type="button" className="button button--primary" onClick={() => window.history.back()}>
            {t('payment-profiles-back')}
          </button>
        ) : (
          // A page load: a visitor who is not signed in yet is signed in on the way.
          <a href={routes.root.build()} className="button button--primary">
            {t('account-back')}
          </a>
        )}
      </p>
    </section>
  );
}
