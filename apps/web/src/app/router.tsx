import { useCallback, useEffect, useRef, type ComponentType } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import {
  loyaltyRouteOf,
  loyaltySignupAddress,
  matchAccountHome,
  matchAccountPage,
  routes,
  type AccountPage,
} from '@/config/routes';
import { DeletionGuard } from '@/features/account-data-rights/components/deletion-guard';
import { useAppStore } from '@/lib/state/app-store';
import { lazyRoute } from './lazy-route';
import { createPageLocation } from './page-location';
import { loyaltyRouteModules, type LoyaltyScreen } from './routes/loyalty/loyalty-route-modules';
import { RootRedirect } from './routes/root-redirect';
import { RouteErrorBoundary } from './shell/error-boundaries';
import { useFocusOnNavigation } from './shell/route-focus';

// Inside the native apps only: what each navigation tells the host app (a chunk of its own, decision
// 0014). Set by preloadNativeNavigation before the first page shows; rendered without Suspense, whose
// reveal React may hold back (up to 300 ms), long enough to miss the first navigation.
let NativeNavigationReporter: ComponentType | null = null;

/**
 * Start-up, inside the native apps: loads the navigation reporter before the first page shows, so
 * that the host hears of that page too. Never rejects: without it the app still works.
 */
export async function preloadNativeNavigation(): Promise<void> {
  try {
    NativeNavigationReporter = (await import('@/lib/native-bridge/native-navigation-reporter')).default;
  } catch (error) {
    console.error('The native navigation reporter could not be loaded', error);
  }
}

// Route modules are loaded on demand; each is a thin page that composes features.
const AccountHomeRoute = lazyRoute(() => import('./routes/account-home-route'));
const ProfileRoute = lazyRoute(() => import('./routes/account/profile-route'));
const PasswordRoute = lazyRoute(() => import('./routes/account/password-route'));
const MobileRoute = lazyRoute(() => import('./routes/account/mobile-route'));
const PrivacyRoute = lazyRoute(() => import('./routes/account/privacy-route'));
const PaymentRoute = lazyRoute(() => import('./routes/account/payment-route'));
const SecurityRoute = lazyRoute(() => import('./routes/account/security-route'));
const SecurityActivityRoute = lazyRoute(() => import('./routes/account/security-activity-route'));
const CloseAccountRoute = lazyRoute(() => import('./routes/account/close-account-route'));
const PasskeysRoute = lazyRoute(() => import('./routes/account/passkeys-route'));
const UnsubscribeRoute = lazyRoute(() => import('./routes/account/unsubscribe-route'));
const EmailConfirmRoute = lazyRoute(() => import('./routes/account/email-confirm-route'));
const PaymentProfilesRoute = lazyRoute(() => import('./routes/payment-profiles-route'));
// The loyalty app is a nested router with its own lazy route table.
const LoyaltyRoutes = lazyRoute(() => import('./routes/loyalty/loyalty-routes'));
const NotFoundRoute = lazyRoute(() => import('./routes/not-found-route'));

/** The account area's sub-pages by name (routes.account). */
const accountPageRoutes: Record<AccountPage, ReturnType<typeof lazyRoute>> = {
  profile: ProfileRoute,
  password: PasswordRoute,
  mobile: MobileRoute,
  privacy: PrivacyRoute,
  payment: PaymentRoute,
  security: SecurityRoute,
  securityActivity: SecurityActivityRoute,
  close: CloseAccountRoute,
  passkeys: PasskeysRoute,
};

/**
 * Loads the chunks of the page at `pathname` ahead, all at once (start-up calls it while it signs in),
 * so the page renders the moment the app is ready; in the app, a page shows once they are here
 * (pageLocation). Any other address is the not-found page's.
 */
export function preloadRouteOf(pathname: string): Promise<unknown> {
  const name = loyaltyRouteOf(pathname);
  if (name !== undefined) {
    const screen = Object.entries(routes.loyalty).find(
      ([, route]) => typeof route === 'object' && route.name === name,
    )?.[0] as LoyaltyScreen | undefined;
    return Promise.all([LoyaltyRoutes.preload(), screen ? loyaltyRouteModules[screen].preload() : undefined]);
  }
  const accountPage = matchAccountPage(pathname);
  if (accountPage) return accountPageRoutes[accountPage].preload();
  if (pathname === routes.root.pattern || matchAccountHome(pathname)) return AccountHomeRoute.preload();
  if (routes.paymentProfiles.pattern.test(pathname)) return PaymentProfilesRoute.preload();
  if (pathname.startsWith(routes.newsletterUnsubscribe.build(''))) return UnsubscribeRoute.preload();
  if (pathname.startsWith(routes.emailConfirm.build(''))) return EmailConfirmRoute.preload();
  return NotFoundRoute.preload();
}

/** The address of the page shown: a new page's once its code is here (page-location.ts). */
export const pageLocation = createPageLocation(preloadRouteOf);

/**
 * Patterns of routes that show their own errors; navigating to any other route clears the error flags
 * (docs/product/states.md#states-and-transitions). The loyalty signup shows banner and page when its consents cannot be loaded (docs/product/addresses-and-routes.md#screens-and-routes).
 */
const routesWithOwnErrorHandling: RegExp[] = [loyaltySignupAddress];

function useClearErrorsOnNavigation(): (failedAt: string) => void {
  const [location] = useLocation();
  const previous = useRef(location);
  // A page whose code fails to load fails after the navigation rendered but before this effect ran:
  // its error flags belong to the new address and stay (issue 17: they were cleared, a blank page).
  const failedAt = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    if (failedAt.current === location) return;
    failedAt.current = null;
    if (!routesWithOwnErrorHandling.some((pattern) => pattern.test(location))) {
      useAppStore.getState().clearErrors();
    }
  }, [location]);
  return useCallback((path: string) => {
    failedAt.current = path;
  }, []);
}

/**
 * Pages that work without signing in, opened from e-mail links: a scheduled deletion does not stand
 * in front of them (docs/product/data-rights.md#close-my-account).
 */
const pagesWithoutSignIn: RegExp[] = [
  new RegExp(`^${routes.newsletterUnsubscribe.build('')}`),
  new RegExp(`^${routes.emailConfirm.build('')}`),
];

/**
 * The route table. /login/callback has no view: start-up finishes the sign-in there and replaces the
 * address before the routes render. The loyalty app mounts under routes.loyalty.base as a nested router.
 * Any other address gets the not-found page (the server answers it with status 404).
 */
export function AppRoutes() {
  const routeFailed = useClearErrorsOnNavigation();
  const isWebView = useAppStore((state) => state.isWebView);
  const [location] = useLocation();
  const announcement = useFocusOnNavigation(location);
  return (
    <>
      {isWebView && NativeNavigationReporter && <NativeNavigationReporter />}
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <RouteErrorBoundary resetKey={location} onFailed={routeFailed}>
        <DeletionGuard open={pagesWithoutSignIn.some((pattern) => pattern.test(location))}>
          <Switch>
            <Route path={routes.root.pattern} component={RootRedirect} />
            <Route path={routes.accountHome.pattern} component={AccountHomeRoute} />
            {Object.entries(accountPageRoutes).map(([page, component]) => (
              <Route key={page} path={routes.account[page as AccountPage].pattern} component={component} />
            ))}
            <Route path={routes.paymentProfiles.pattern} component={PaymentProfilesRoute} />
            <Route path={routes.newsletterUnsubscribe.pattern} component={UnsubscribeRoute} />
            <Route path={routes.emailConfirm.pattern} component={EmailConfirmRoute} />
            <Route path={routes.loyalty.base} nest>
              <LoyaltyRoutes />
            </Route>
            <Route component={NotFoundRoute} />
          </Switch>
        </DeletionGuard>
      </RouteErrorBoundary>
    </>
  );
}
