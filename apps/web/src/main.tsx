import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { browserStartUpEnvironment, startApp } from '@/app/bootstrap';
import { createAppServices } from '@/app/services';
import { paymentRedirectTarget } from '@/config/routes';
import { useAppStore } from '@/lib/state/app-store';

// docs/product/addresses-and-routes.md#screens-and-routes: the payment marker in the fragment is checked before anything else starts.
const paymentTarget = paymentRedirectTarget(window.location.hash);

if (paymentTarget) {
  window.location.replace(paymentTarget);
} else {
  const services = createAppServices();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App services={services} />
    </StrictMode>,
  );
  startApp(services, browserStartUpEnvironment).catch((error: unknown) => {
    console.error('Start-up failed', error);
    useAppStore.getState().setError(true);
  });
}
