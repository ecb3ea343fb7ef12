import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { HttpClientProvider } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { ServicesContext, type AppServices } from './services';

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={services}>
      <HttpClientProvider client={services.http}>
        <QueryClientProvider client={services.queryClient}>
          <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
        </QueryClientProvider>
      </HttpClientProvider>
    </ServicesContext.Provider>
  );
}
