import { useTranslation } from '@/lib/i18n/use-translation';
import './loyalty-ui.css';

interface InlineErrorProps {
  title?: string;
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}

/** A calm message in place of content that could not load, with a Retry button. */
export function InlineError({ title, message, onRetry, retrying }: InlineErrorProps) {
  const { t } = useTranslation();
  return (
    <div className="card loyalty-inline-error" role="alert">
      {title && <p className="loyalty-inline-error__title">{title}</p>}
      <p className="loyalty-inline-error__message">{message}</p>
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
