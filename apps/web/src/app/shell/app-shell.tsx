import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '@/components/spinner';
import { useAppStore } from '@/lib/state/app-store';
import { ConfigErrorPage } from './config-error-page';
import { ErrorBanner } from './error-banner';
import { ErrorPage } from './error-page';
import { NotifyDialog } from './notify-dialog';
import { Toasts } from './toasts';
import { TopBar } from './top-bar';
import './shell.css';

/**
 * The application shell of spec §2: error page, dimming overlay, error banner and the routed view. The
 * routed view is hidden while the error page shows; the spinner shows while the app loads and no page
 * error is active.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { appReady, error, configProblems } = useAppStore(
    useShallow((state) => ({
      appReady: state.appReady,
      error: state.error,
      configProblems: state.configProblems,
    })),
  );

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('skip-to-content', 'Skip to content')}
      </a>
      <TopBar />
      <main id="main" className="shell__main" tabIndex={-1}>
        {configProblems ? (
          <ConfigErrorPage problems={configProblems} />
        ) : (
          <>
            {error.page && <ErrorPage />}
            {!appReady && !error.page && <Spinner />}
            {appReady && (
              <div className="shell__view" hidden={error.page}>
                <Suspense fallback={<Spinner />}>{children}</Suspense>
              </div>
            )}
          </>
        )}
      </main>
      {error.overlay && <div className="overlay" aria-hidden="true" />}
      {error.banner && <ErrorBanner />}
      <Toasts />
      <NotifyDialog />
    </div>
  );
}
