import { useEffect, type ReactNode } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { Spinner } from '@/components/spinner';
import { loyaltyRouteName, routes } from '@/config/routes';
import { useLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { LoyaltyRedirect } from '@/components/loyalty-page/loyalty-link';
import { loyaltyRouteModules } from './loyalty-route-modules';
import { isSignedIn, useSessionUser } from '@/lib/session/session-user';

const {
  entry: EntryRoute,
  onboarding: OnboardingRoute,
  celebration: CelebrationRoute,
  status: StatusRoute,
  tierOverview: TierOverviewRoute,
  signup: SignupRoute,
  reward: RewardRoute,
  loading: LoadingRoute,
  history: HistoryRoute,
  faq: FaqRoute,
  demo: DemoRoute,
} = loyaltyRouteModules;

/**
 * Every loyalty route but /demo needs the signed-in customer. Start-up signs in before routes render,
 * except on the public demo; coming from there, a reload lets start-up sign in.
 */
function SignedIn({ children }: { children: ReactNode }) {
  const signedIn = isSignedIn(useSessionUser());
  useEffect(() => {
    if (!signedIn) window.location.reload();
  }, [signedIn]);
  return signedIn ? children : <Spinner />;
}

/** Tells the loyalty store which loyalty route is shown (the native app is told by the app's router). */
function useRouteTracking(): void {
  const [location] = useLocation();
  const name = loyaltyRouteName(location);
  useEffect(() => {
    useLoyaltyStore.getState().recordRoute(name);
  }, [name]);
}

/** The loyalty app under routes.loyalty.base (docs/product/addresses-and-routes.md#screens-and-routes); paths here are relative to that base. */
export default function LoyaltyRoutes() {
  useRouteTracking();
  const { loyalty } = routes;
  return (
    <Switch>
      <Route path={loyalty.demo.pattern} component={DemoRoute} />
      <Route path={loyalty.entry.pattern}>
        <SignedIn>
          <EntryRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.onboarding.pattern}>
        <SignedIn>
          <OnboardingRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.celebration.pattern}>
        <SignedIn>
          <CelebrationRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.status.pattern}>
        <SignedIn>
          <StatusRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.tierOverview.pattern}>
        <SignedIn>
          <TierOverviewRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.signup.pattern}>
        <SignedIn>
          <SignupRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.reward.pattern}>
        <SignedIn>
          <RewardRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.loading.pattern}>
        <SignedIn>
          <LoadingRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.history.pattern}>
        <SignedIn>
          <HistoryRoute />
        </SignedIn>
      </Route>
      <Route path={loyalty.faq.pattern}>
        <SignedIn>
          <FaqRoute />
        </SignedIn>
      </Route>
      <Route>
        <LoyaltyRedirect to={loyalty.entry.build()} />
      </Route>
    </Switch>
  );
}
