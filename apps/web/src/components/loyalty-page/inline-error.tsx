import { supportReference } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { SupportReference } from '../support-reference';
import './loyalty-ui.css';

interface InlineErrorProps {
  title?: string;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
  /** What failed: after a server error, its reference for support shows (docs/product/states.md#a-reference-for-support). */
  error?: unknown;
}

/** A calm message in place of content that could not load, with a Retry button. */
export function InlineError({ title, message, onRetry, retrying, error }: InlineErrorProps) {
  const { t } = useTranslation();
  const reference = supportReference(error);
  return (
    <div className="card loyalty-inline-error" role="alert">
      {title && <p className="loyalty-inline-error__title">{title}</p>}
      <p className="loyalty-inline-error__message">{message}</p>
      {reference && <SupportReference reference={reference} />}
      {onRetry && (
        <button
          type="button"
          className="button button--secondary"
          onClick={onRetry}
          disabled={retrying}
          aria-busy={retrying || undefined}
        >
          {t('loyalty-retry')}
        </button>
      )}
    </div>
  );
}
