import { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { AuthSession } from '@/features/auth/auth-session';
import { createHttpClient } from '@/lib/http';
import type { RuntimeServices } from '@/lib/runtime-services';
import { useAppStore } from '@/lib/state/app-store';

/**
 * The app's long-lived objects, created once in main.tsx and handed down (not module globals).
 * Features read their part (http, config) through lib/runtime-services.
 */
export interface AppServices extends RuntimeServices {
  queryClient: QueryClient;
  /** The browser sign-in session; null in a webview (the host owns the token) and before start-up. */
  auth: AuthSession | null;
}

export function createAppServices(options: { fetch?: typeof fetch } = {}): AppServices {
  return {
    // The token-update callback stores each new token in the app state (docs/product/api.md#calls).
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
