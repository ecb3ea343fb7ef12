import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { HttpClientProvider, type HttpClient } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { createFakeHttpClient } from './fake-http-client';

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
  const wrap = options.wrapper ?? ((children: ReactNode) => children);
  const result = render(
    <HttpClientProvider client={http}>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          {wrap(
            <Router hook={location.hook} searchHook={location.searchHook}>
              {ui}
            </Router>,
          )}
        </I18nextProvider>
      </QueryClientProvider>
    </HttpClientProvider>,
  );
  return { ...result, location, http, queryClient };
}
