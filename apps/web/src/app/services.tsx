import type { RuntimeConfig } from '@roadpass/contracts';
import { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { AuthSession } from '@/features/auth/auth-session';
import { createHttpClient, type HttpClient } from '@/lib/http';
import { useAppStore } from '@/lib/state/app-store';

/** The app's long-lived objects, created once in main.tsx and handed down (not module globals). */
export interface AppServices {
  http: HttpClient;
  queryClient: QueryClient;
  /** The browser sign-in session; null in a webview (the host owns the token) and before start-up. */
  auth: AuthSession | null;
  /** /config.json once start-up read and validated it; null before (and when it is invalid). */
  config: RuntimeConfig | null;
}

export function createAppServices(options: { fetch?: typeof fetch } = {}): AppServices {
  return {
    // The token-update callback stores each new token in the app state (spec §7).
    http: createHttpClient({ ...options, onTokenChange: (token) => useAppStore.getState().setToken(token) }),
    queryClient: new QueryClient({
      defaultOptions: {
        queries: { retry: false, refetchOnWindowFocus: false },
        // A save is tried at once, offline too: it fails with "not sent, you are offline" and the form
        // keeps its input (paused, it went out silently later, when the customer had left; issue 17).
        mutations: { networkMode: 'always' },
      },
    }),
    auth: null,
    config: null,
  };
}

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs the app providers');
  return services;
}
