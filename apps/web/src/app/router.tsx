import { lazy, useEffect, useRef } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { routes } from '@/config/routes';
import { useAppStore } from '@/lib/state/app-store';
import { RootRedirect } from './routes/root-redirect';

// Route modules are loaded on demand; each is a thin page that composes features.
const AccountHomeRoute = lazy(() => import('./routes/account-home-route'));
const PaymentProfilesRoute = lazy(() => import('./routes/payment-profiles-route'));

/**
 * Patterns of routes that show their own errors; navigating to any other route clears the error flags
 * (spec §4). None so far: the loyalty routes of a later issue (signup) will add theirs here.
 */
const routesWithOwnErrorHandling: RegExp[] = [];

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
 * address before the routes render. The loyalty app of a later issue mounts under routes.loyalty.base as a nested router:
 *   <Route path={routes.loyalty.base} nest><LoyaltyRoutes /></Route>   (LoyaltyRoutes = lazy(...))
 */
export function AppRoutes() {
  useClearErrorsOnNavigation();
  return (
    <Switch>
      <Route path={routes.root.pattern} component={RootRedirect} />
      <Route path={routes.accountHome.pattern} component={AccountHomeRoute} />
      <Route path={routes.paymentProfiles.pattern} component={PaymentProfilesRoute} />
      <Route>
        <Redirect to={routes.root.build()} replace />
      </Route>
    </Switch>
  );
}
