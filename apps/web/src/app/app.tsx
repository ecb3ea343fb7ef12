import { Router } from 'wouter';
import { AppProviders } from './providers';
import { AppRoutes, pageLocation } from './router';
import type { AppServices } from './services';
import { AppShell } from './shell/app-shell';
import { AppErrorBoundary } from './shell/error-boundaries';
import './global.css';

export function App({ services }: { services: AppServices }) {
  return (
    <AppErrorBoundary>
      <AppProviders services={services}>
        <Router hook={pageLocation.hook} searchHook={pageLocation.searchHook}>
          <AppShell>
            <AppRoutes />
          </AppShell>
        </Router>
      </AppProviders>
    </AppErrorBoundary>
  );
}
