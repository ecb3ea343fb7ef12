import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useShallow } from 'zustand/react/shallow';
import { requestHostToken } from '@/lib/native-bridge/host-bridge';
import { useHostBridge } from '@/lib/native-bridge/host-bridge-state';
import { useAppStore } from '@/lib/state/app-store';
import './webview.css';

const ignore = () => {};

/**
 * Webview mode only (docs/product/states.md#states-and-transitions, issue 9): the host gave no token in time or refused one ("close and
 * reopen", with a button that asks the host again), and a lost connection (the app refetches what
 * failed by itself when the network returns).
 */
export function WebViewNotices() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { expired, refreshing } = useHostBridge(useShallow((state) => state));
  const online = useSyncExternalStore(onlineManager.subscribe.bind(onlineManager), () =>
    onlineManager.isOnline(),
  );

  // When the network returns (not as the notices mount: that refetched a start-up call refused a
  // moment before, and its 401 asked a host that had just refused the token once more).
  useEffect(
    () =>
      onlineManager.subscribe((isOnline) => {
        if (!isOnline) return;
        const { appReady, error, clearErrors } = useAppStore.getState();
        // A start-up that failed offline starts again; a page whose calls failed loads them again.
        if (!appReady && error.page) window.location.reload();
        else {
          if (error.page) clearErrors();
          void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
        }
      }),
    [queryClient],
  );

  const askAgain = () =>
    void requestHostToken()
      .then(() => queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' }))
      .catch(ignore);

  return (
    <>
      <div role="status" className="webview-notice" hidden={online}>
        {!online && (
          <>
            <strong>{t('webview-offline-title')}</strong> {t('webview-offline-text')}
          </>
        )}
      </div>
      {expired && (
        <div className="webview-session card" role="alert" aria-busy={refreshing || undefined}>
          <h2 className="webview-session__title">{t('webview-session-expired-title')}</h2>
          <p>{t('webview-session-expired-text')}</p>
          <button type="button" className="button button--primary" onClick={askAgain} disabled={refreshing}>
            {t(refreshing ? 'webview-session-refreshing' : 'webview-session-retry')}
          </button>
        </div>
      )}
    </>
  );
}
