import type { RuntimeConfig } from '@roadpass/contracts';
import { createContext, useContext } from 'react';
import type { HttpClient } from '@/lib/http';

/**
 * The part of the app's long-lived objects (app/services.tsx) that features may read. The provider
 * is handed the services object itself, so a configuration filled in at start-up is read at each render.
 */
export interface RuntimeServices {
  http: HttpClient;
  /** /config.json once start-up read and validated it; null before (and when it is invalid). */
  config: RuntimeConfig | null;
  /**
   * Signs the customer in again now (OIDC with max_age=0) and comes back to this address; null in a
   * webview (the host owns the sign-in) and before start-up. Used by lib/forms/step-up.
   */
  signInAgain?: (() => Promise<void>) | null;
}

const RuntimeServicesContext = createContext<RuntimeServices | null>(null);

export const RuntimeServicesProvider = RuntimeServicesContext.Provider;

/** The runtime configuration and HTTP client; null outside the app's providers. */
export function useRuntimeServices(): RuntimeServices | null {
  return useContext(RuntimeServicesContext);
}
