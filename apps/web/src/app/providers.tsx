import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { HttpClientProvider } from '@/lib/http';
import { RuntimeServicesProvider } from '@/lib/runtime-services';
import { ServicesContext, type AppServices } from './services';

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={services}>
      <RuntimeServicesProvider value={services}>
        <HttpClientProvider client={services.http}>
          <QueryClientProvider client={services.queryClient}>{children}</QueryClientProvider>
        </HttpClientProvider>
      </RuntimeServicesProvider>
    </ServicesContext.Provider>
  );
}
