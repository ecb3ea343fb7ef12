import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';

/** The webview payment target (spec §2): payment profiles live in the native app. */
export function PaymentProfilesPage() {
  const { t } = useTranslation();

  useEffect(() => {
    document.title = `${t('payment-profiles-title', 'Payment profiles')} · ${t('app-name', 'Roadpass')}`;
  }, [t]);

  return (
    <section className="page card" aria-labelledby="payment-profiles-title">
      <h1 id="payment-profiles-title">{t('payment-profiles-title', 'Payment profiles')}</h1>
      <p>{t('payment-profiles-text', 'Your payment profiles are managed in the Roadpass app.')}</p>
    </section>
  );
}
