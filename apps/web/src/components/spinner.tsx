import { useTranslation } from '@/lib/i18n/use-translation';
import './spinner.css';

/** The loading indicator: announced politely, named "Loading" (translated). */
export function Spinner() {
  const { t } = useTranslation();
  const label = t('loading', 'Loading');
  return (
    <div className="spinner" role="status" aria-live="polite" aria-label={label}>
      <span className="spinner__wheel" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
