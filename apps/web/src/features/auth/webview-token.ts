import type { HttpClient } from '@/lib/http';
import { readItem, storageKeys, writeItem } from '@/lib/storage/storage';

declare global {
  interface Window {
    /** Called by the native host app with a fresh access token (spec §7 native bridge). */
    setAuthToken?: (token: string) => void;
  }
}

/**
 * In a webview the host app supplies the token through window.setAuthToken (minimal for now; the full
 * bridge is a later issue). Resolves once a token is available: the stored one of this session, or
 * the first the host sets. Later calls replace the token.
 */
export function installWebViewTokenSetter(http: HttpClient): Promise<void> {
  return new Promise((resolve) => {
    window.setAuthToken = (token: string) => {
      writeItem(sessionStorage, storageKeys.token, token);
      http.setToken(token);
      resolve();
    };
    const stored = readItem(sessionStorage, storageKeys.token);
    if (stored) {
      http.setToken(stored);
      resolve();
    }
  });
}
