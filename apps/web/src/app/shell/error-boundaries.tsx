import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorIllustration } from '@/components/error-illustration';
import { i18n } from '@/lib/i18n/i18n';
import { reportError } from '@/lib/errors/report-error';
import { useAppStore } from '@/lib/state/app-store';

interface RouteBoundaryProps {
  /** The current address: moving to another one renders that route afresh. */
  resetKey: string;
  children: ReactNode;
}

/**
 * Around the routes: a page that throws while rendering, or whose lazy chunk cannot be loaded, raises
 * the shell's error page and banner (spec §2, §4) instead of leaving a blank page. The banner's Retry
 * reloads the page, which also fetches a chunk again; navigating elsewhere clears the error (spec §4)
 * and this boundary with it.
 */
export class RouteErrorBoundary extends Component<RouteBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportError(error, { where: 'route', componentStack: info.componentStack });
    useAppStore.getState().setError(true);
  }

  override componentDidUpdate(previous: RouteBoundaryProps): void {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Around the whole app: if the frame itself fails, a page that needs nothing of it (no store, no
 * router): the illustration, one sentence and Retry.
 */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportError(error, { where: 'shell', componentStack: info.componentStack });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="app-failed">
        <ErrorIllustration label={i18n.t('error-page-label', 'Something went wrong')} />
        <p role="alert">{i18n.t('error-banner-description', 'An error has occurred, please try again')}</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          {i18n.t('error-banner-confirm', 'Retry')}
        </button>
      </main>
    );
  }
}
