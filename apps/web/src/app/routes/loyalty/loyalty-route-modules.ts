import { lazyRoute } from '../../lazy-route';

// Each loyalty screen is its own chunk: the status page (a first page) loads only what it shows. The
// table lives apart from loyalty-routes.tsx so that start-up can load a screen's chunk together with
// the loyalty router's (router.tsx: preloadRouteOf), not one after the other.
export const loyaltyRouteModules = {
  entry: lazyRoute(() => import('./loyalty-entry-route')),
  onboarding: lazyRoute(() => import('./loyalty-onboarding-route')),
  celebration: lazyRoute(() => import('./loyalty-celebration-route')),
  status: lazyRoute(() => import('./loyalty-status-route')),
  tierOverview: lazyRoute(() => import('./loyalty-tier-overview-route')),
  signup: lazyRoute(() => import('./loyalty-signup-route')),
  reward: lazyRoute(() => import('./loyalty-reward-route')),
  loading: lazyRoute(() => import('./loyalty-loading-route')),
  history: lazyRoute(() => import('./loyalty-history-route')),
  faq: lazyRoute(() => import('./loyalty-faq-route')),
  demo: lazyRoute(() => import('./loyalty-demo-route')),
} as const;

export type LoyaltyScreen = keyof typeof loyaltyRouteModules;
