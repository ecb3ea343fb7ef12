import { useTranslation } from '@/lib/i18n/use-translation';
import { isOfflineError, supportReference } from '@/lib/http';
import { ErrorIllustration } from './error-illustration';
import { SupportReference } from './support-reference';
import './load-error.css';

interface LoadErrorProps {
  /** Why the content could not be loaded: no connection and a server error read differently. */
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}

/**
 * In place of a page's content that could not be loaded: the shell's error illustration, a sentence
 * that says whether the connection or the server failed, the reference for support after a server
 * error, and Retry (which loads only what failed).
 */
export function LoadError({ error, onRetry, retrying = false }: LoadErrorProps) {
  const { t } = useTranslation();
  const offline = isOfflineError(error) || (typeof navigator !== 'undefined' && navigator.onLine === false);
  const reference = offline ? undefined : supportReference(error);
  return (
    <div className="load-error card" role="alert" aria-busy={retrying || undefined}>
      <ErrorIllustration label={t('error-page-label', 'Something went wrong')} />
      <p className="load-error__message">{t(offline ? 'load-error-offline' : 'load-error-server')}</p>
      {reference && <SupportReference reference={reference} />}
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
