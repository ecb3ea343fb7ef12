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
}

const RuntimeServicesContext = createContext<RuntimeServices | null>(null);

export const RuntimeServicesProvider = RuntimeServicesContext.Provider;

/** The runtime configuration and HTTP client; null outside the app's providers. */
export function useRuntimeServices(): RuntimeServices | null {
  return useContext(RuntimeServicesContext);
}
