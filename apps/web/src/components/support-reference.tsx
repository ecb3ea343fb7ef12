import { useTranslation } from '@/lib/i18n/use-translation';
import './support-reference.css';

/**
 * After a server error: the failed request's reference, for the customer to quote to support, who
 * find it in the server's and the load balancer's logs (docs/product/states.md#a-reference-for-support).
 */
export function SupportReference({ reference }: { reference: string }) {
  const { t } = useTranslation();
  return (
    <p className="support-reference">
      {t('error-reference-label', 'Reference for support:')}{' '}
      <span className="support-reference__id" translate="no">
        {reference}
      </span>
    </p>
  );
}
