import { AppProviders } from './providers';
import { AppRoutes } from './router';
import type { AppServices } from './services';
import { AppShell } from './shell/app-shell';
import { AppErrorBoundary } from './shell/error-boundaries';
import './global.css';

export function App({ services }: { services: AppServices }) {
  return (
    <AppErrorBoundary>
      <AppProviders services={services}>
        <AppShell>
          <AppRoutes />
        </AppShell>
      </AppProviders>
    </AppErrorBoundary>
  );
}
