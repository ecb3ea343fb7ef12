import { useEffect, useState, type ReactNode } from 'react';
import { optionalPart } from '@/components/optional-part';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useRuntimeServices } from '@/lib/runtime-services';
import { useAppStore } from '@/lib/state/app-store';

// The consent manager and everything it loads are chunks of their own: the first load pays only this gate.
// Left out, not fatal, when its code cannot be downloaded (offline); fetched again once online.
const ConsentManager = optionalPart(() => import('./consent-manager'));

// The query of the address the app started on, where a webview host puts its consent choice
// (docs/native-bridge.md): read now, before a redirect inside the app replaces the address.
const startSearch = window.location.search;

const whenIdle = (run: () => void): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 1);
  return () => window.clearTimeout(id);
};

/**
 * Loads the consent manager once the app is ready and the browser is idle, and offers "Privacy
 * settings" in the frame's footer to open it again later. `footerItems` go beside it (the frame puts
 * "Report a Bug" there, which shows only with error-reporting consent).
 */
export function ConsentGate({ footerItems }: { footerItems?: ReactNode }) {
  const { t } = useTranslation();
  const services = useRuntimeServices();
  const appReady = useAppStore((s) => s.appReady);
  const [idle, setIdle] = useState(false);
  const [settingsRequest, setSettingsRequest] = useState(0);

  useEffect(() => {
    if (!appReady) return;
    return whenIdle(() => setIdle(true));
  }, [appReady]);

  if (!idle || !services?.config) return null;
  return (
    <>
      <footer className="shell__footer">
        <button type="button" className="shell__footer-link" onClick={() => setSettingsRequest((n) => n + 1)}>
          {t('consent-privacy-settings', 'Privacy settings')}
        </button>
        {footerItems}
      </footer>
      <ConsentManager
        config={services.config}
        http={services.http}
        settingsRequest={settingsRequest}
        startSearch={startSearch}
      />
    </>
  );
}
