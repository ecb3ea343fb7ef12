import { useTranslation } from '@/lib/i18n/use-translation';
import { isOfflineError } from '@/lib/http';
import { ErrorIllustration } from './error-illustration';
import './load-error.css';

interface LoadErrorProps {
  /** Why the content could not be loaded: no connection and a server error read differently. */
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}

/**
 * In place of a page's content that could not be loaded: the shell's error illustration, a sentence
 * that says whether the connection or the server failed, and Retry (which loads only what failed).
 */
export function LoadError({ error, onRetry, retrying = false }: LoadErrorProps) {
  const { t } = useTranslation();
  const offline = isOfflineError(error) || (typeof navigator !== 'undefined' && navigator.onLine === false);
  return (
    <div className="load-error card" role="alert" aria-busy={retrying || undefined}>
      <ErrorIllustration label={t('error-page-label', 'Something went wrong')} />
      <p className="load-error__message">{t(offline ? 'load-error-offline' : 'load-error-server')}</p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => {
          if (!retrying) onRetry();
        }}
        aria-disabled={retrying || undefined}
      >
        {t('error-banner-confirm', 'Retry')}
      </button>
    </div>
  );
}
