import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorIllustration } from '@/components/error-illustration';
import { i18n } from '@/lib/i18n/i18n';
import { isChunkLoadError, reportError } from '@/lib/errors/report-error';
import { supportReference } from '@/lib/http';
import { useAppStore } from '@/lib/state/app-store';
import { retryFailedRoutes } from '../lazy-route';
import { offerRetryInPlace } from './route-retry';

interface RouteBoundaryProps {
  /** The current address: moving to another one renders that route afresh. */
  resetKey: string;
  /** Called when the route at `resetKey` failed (the router keeps its error flags for that address). */
  onFailed?: (resetKey: string) => void;
  children: ReactNode;
}

interface RouteBoundaryState {
  failed: boolean;
  /** The page's code could not be downloaded (offline): it can be loaded again without a reload. */
  chunkFailed: boolean;
}

/**
 * Fetches of a page's code after the connection came back, before Retry is the customer's: after 0.5,
 * 1, 2, 4, 8 and 16 s (about half a minute in all; a phone's network can take seconds to carry again).
 */
const ONLINE_RETRIES = 6;

/**
 * Around the routes: a page that throws while rendering, or whose lazy chunk cannot be loaded, raises
 * the shell's error page and banner (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions) instead of leaving a blank page. Retry reloads the
 * page; for a chunk that could not be loaded it loads the chunk again in place, and so does the
 * connection coming back (`online`) or anyone clearing the error flags (the webview's offline notice).
 * Navigating elsewhere clears the error (docs/product/states.md#states-and-transitions) and this boundary with it.
 */
export class RouteErrorBoundary extends Component<RouteBoundaryProps, RouteBoundaryState> {
  override state: RouteBoundaryState = { failed: false, chunkFailed: false };
  private unsubscribe: (() => void) | undefined;

  static getDerivedStateFromError(error: unknown): RouteBoundaryState {
    return { failed: true, chunkFailed: isChunkLoadError(error) };
  }

  private readonly retry = () => {
    offerRetryInPlace(null);
    retryFailedRoutes();
    useAppStore.getState().clearErrors();
    this.setState({ failed: false, chunkFailed: false });
  };

  /**
   * Tries left after the connection came back: the first fetches can still fail while the network comes
   * up (seen in Chromium right after `online`, for several seconds on a loaded machine), so a page whose
   * code fails again then is fetched again with a doubling pause before the error page waits for the
   * customer's Retry.
   */
  private onlineRetriesLeft = 0;
  private onlineRetryTimer: number | undefined;

  private readonly retryWhenOnline = () => {
    if (!this.state.chunkFailed) return;
    this.onlineRetriesLeft = ONLINE_RETRIES;
    this.retry();
  };

  override componentDidMount(): void {
    window.addEventListener('online', this.retryWhenOnline);
    this.unsubscribe = useAppStore.subscribe((state, previous) => {
      if (this.state.failed && previous.error.page && !state.error.page) {
        offerRetryInPlace(null);
        retryFailedRoutes();
        this.setState({ failed: false, chunkFailed: false });
      }
    });
  }

  override componentWillUnmount(): void {
    window.clearTimeout(this.onlineRetryTimer);
    window.removeEventListener('online', this.retryWhenOnline);
    this.unsubscribe?.();
    offerRetryInPlace(null);
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportError(error, { where: 'route', componentStack: info.componentStack });
    this.props.onFailed?.(this.props.resetKey);
    offerRetryInPlace(isChunkLoadError(error) ? this.retry : null);
    useAppStore.getState().setError(true, {}, supportReference(error));
    if (isChunkLoadError(error) && this.onlineRetriesLeft > 0 && navigator.onLine) {
      const attempt = ONLINE_RETRIES - this.onlineRetriesLeft;
      this.onlineRetriesLeft -= 1;
      window.clearTimeout(this.onlineRetryTimer);
      this.onlineRetryTimer = window.setTimeout(this.retryWhenStillFailed, 500 * 2 ** attempt);
    }
  }

  private readonly retryWhenStillFailed = () => {
    if (this.state.chunkFailed) this.retry();
  };

  override componentDidUpdate(previous: RouteBoundaryProps): void {
    if (previous.resetKey !== this.props.resetKey) this.onlineRetriesLeft = 0;
    if (previous.resetKey !== this.props.resetKey && this.state.failed) {
      offerRetryInPlace(null);
      retryFailedRoutes();
      this.setState({ failed: false, chunkFailed: false });
    }
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
