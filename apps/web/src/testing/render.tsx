import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { HttpClientProvider, type HttpClient } from '@/lib/http';
import { createFakeHttpClient } from './fake-http-client';
import { applyTestSession } from './session';

interface RenderOptions {
  /** The in-memory address, with or without a query. */
  path?: string;
  http?: HttpClient;
  /** The server-data cache, when a test fills it first. */
  queryClient?: QueryClient;
  /** Extra providers around the tree (app tests add the app's own). */
  wrapper?: (children: ReactNode) => ReactNode;
}

/**
 * Renders with the shared providers (HTTP client, query client, i18n) and an in-memory address;
 * returns the address history too.
 */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const [path = '/', search = ''] = (options.path ?? '/').split('?');
  const location = memoryLocation({ path, searchPath: search, record: true });
  const http = options.http ?? createFakeHttpClient();
  const queryClient =
    options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  applyTestSession(queryClient);
  const wrap = options.wrapper ?? ((children: ReactNode) => children);
  const result = render(
    <HttpClientProvider client={http}>
      <QueryClientProvider client={queryClient}>
        {wrap(
          <Router hook={location.hook} searchHook={location.searchHook}>
            {ui}
          </Router>,
        )}
      </QueryClientProvider>
    </HttpClientProvider>,
  );
  return { ...result, location, http, queryClient };
}
