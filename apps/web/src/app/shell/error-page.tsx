import { useTranslation } from '@/lib/i18n/use-translation';
import { ErrorIllustration } from '@/components/error-illustration';

/** The full error page of docs/product/addresses-and-routes.md#screens-and-routes: only an illustration, with an accessible name. */
export function ErrorPage() {
  const { t } = useTranslation();
  return (
    <div className="error-page">
      <ErrorIllustration label={t('error-page-label', 'Something went wrong')} />
    </div>
  );
}
