import { createContext, useContext, type ReactNode } from 'react';
import type { HttpClient } from './http-client';

const HttpClientContext = createContext<HttpClient | null>(null);

export function HttpClientProvider({ client, children }: { client: HttpClient; children: ReactNode }) {
  return <HttpClientContext.Provider value={client}>{children}</HttpClientContext.Provider>;
}

/** The app's HTTP client; components get it from context so tests can hand in a fake one. */
export function useHttp(): HttpClient {
  const client = useContext(HttpClientContext);
  if (!client) throw new Error('useHttp needs an <HttpClientProvider>');
  return client;
}
