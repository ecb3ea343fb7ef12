import { lazy, useEffect, useRef } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { loyaltySignupAddress, routes } from '@/config/routes';
import { useAppStore } from '@/lib/state/app-store';
import { RootRedirect } from './routes/root-redirect';
import { RouteErrorBoundary } from './shell/error-boundaries';
import { useFocusOnNavigation } from './shell/route-focus';

// Route modules are loaded on demand; each is a thin page that composes features.
const AccountHomeRoute = lazy(() => import('./routes/account-home-route'));
const PaymentProfilesRoute = lazy(() => import('./routes/payment-profiles-route'));
// The loyalty app is a nested router with its own lazy route table.
const LoyaltyRoutes = lazy(() => import('./routes/loyalty/loyalty-routes'));
const NotFoundRoute = lazy(() => import('./routes/not-found-route'));

/**
 * Patterns of routes that show their own errors; navigating to any other route clears the error flags
 * (spec §4). The loyalty signup shows banner and page when its consents cannot be loaded (spec §2).
 */
const routesWithOwnErrorHandling: RegExp[] = [loyaltySignupAddress];

function useClearErrorsOnNavigation(): void {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    if (!routesWithOwnErrorHandling.some((pattern) => pattern.test(location))) {
      useAppStore.getState().clearErrors();
    }
  }, [location]);
}

/**
 * The route table. /login/callback has no view: start-up finishes the sign-in there and replaces the
 * address before the routes render. The loyalty app mounts under routes.loyalty.base as a nested router.
 * Any other address gets the not-found page (the server answers it with status 404).
 */
export function AppRoutes() {
  useClearErrorsOnNavigation();
  const [location] = useLocation();
  const announcement = useFocusOnNavigation(location);
  return (
    <>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <RouteErrorBoundary resetKey={location}>
        <Switch>
          <Route path={routes.root.pattern} component={RootRedirect} />
          <Route path={routes.accountHome.pattern} component={AccountHomeRoute} />
          <Route path={routes.paymentProfiles.pattern} component={PaymentProfilesRoute} />
          <Route path={routes.loyalty.base} nest>
            <LoyaltyRoutes />
          </Route>
          <Route component={NotFoundRoute} />
        </Switch>
      </RouteErrorBoundary>
    </>
  );
}
