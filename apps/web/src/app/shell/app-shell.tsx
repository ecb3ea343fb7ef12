import { Suspense, type ReactNode } from 'react';
import { optionalPart } from '@/components/optional-part';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '@/components/spinner';
import { useHostBridge } from '@/lib/native-bridge/host-bridge-state';
import { ConsentGate } from '@/features/consent/consent-gate';
import { FeedbackEntry } from '@/features/feedback/feedback-entry';
import { useAppStore } from '@/lib/state/app-store';
import { pageLocation } from '../router';
import { ConfigErrorPage } from './config-error-page';
import { ErrorBanner } from './error-banner';
import { ErrorPage } from './error-page';
import { NotifyDialog } from './notify-dialog';
import { Toasts } from './toasts';
import { TopBar } from './top-bar';
import './shell.css';

// Webview mode only: loaded when the app runs inside the native app (not on the web's first load).
// Left out, not fatal, when its code cannot be downloaded (offline); fetched again once online.
const WebViewNotices = optionalPart<object>(() =>
  import('@/features/webview/webview-notices').then((module) => ({ default: module.WebViewNotices })),
);

/**
 * The application shell of docs/product/addresses-and-routes.md#screens-and-routes: error page, dimming overlay, error banner and the routed view. The
 * routed view is hidden while the error page shows; the spinner shows while the app loads and no page
 * error is active.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { appReady, error, configProblems, isWebView } = useAppStore(
    useShallow((state) => ({
      appReady: state.appReady,
      error: state.error,
      configProblems: state.configProblems,
      isWebView: state.isWebView,
    })),
  );
  // Webview: a host that gave no token shows its own state instead of a spinner for ever.
  const expired = useHostBridge((state) => state.expired);
  // The next page's code is on its way: the page shown stays, and a bar at the top says it is coming.
  const nextPageLoading = pageLocation.usePending();

  return (
    <div className={isWebView ? 'shell shell--webview' : 'shell'}>
      <a className="skip-link" href="#main">
        {t('skip-to-content', 'Skip to content')}
      </a>
      <TopBar />
      <main id="main" className="shell__main" tabIndex={-1} aria-busy={nextPageLoading || undefined}>
        {configProblems ? (
          <ConfigErrorPage problems={configProblems} />
        ) : (
          <>
            {isWebView && <WebViewNotices />}
            {error.page && <ErrorPage />}
            {!appReady && !error.page && !expired && <Spinner />}
            {appReady && (
              <div className="shell__view" hidden={error.page || expired}>
                <Suspense fallback={<Spinner />}>{children}</Suspense>
              </div>
            )}
          </>
        )}
      </main>
      <ConsentGate footerItems={<FeedbackEntry />} />
      {error.overlay && <div className="overlay" aria-hidden="true" />}
      {error.banner && <ErrorBanner />}
      <Toasts />
      <NotifyDialog />
    </div>
  );
}
