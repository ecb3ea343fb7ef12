import { useEffect, useEffectEvent, useRef } from 'react';
import { useLocation } from 'wouter';
import { isAuthCallbackPath, loyaltyRouteOf, routes } from '@/config/routes';
import { useAppStore } from '@/lib/state/app-store';
import { checkHistory, clearHistory, didNavigateBackward, didNavigateForward } from './native-bridge';
import {
  createNavigationDirectionTracker,
  type NavigationDirection,
  type NavigationDirectionTracker,
} from './navigation-direction';

export type NativeNavigationAction = 'clear-history' | NavigationDirection;

/** docs/product/addresses-and-routes.md#screens-and-routes: after navigating to these routes the webview's native history is cleared (it becomes closeable). */
const historyClearingRoutes: ReadonlySet<string> = new Set([
  routes.loyalty.celebration.name,
  routes.loyalty.onboarding.name,
  routes.loyalty.status.name,
  routes.loyalty.loading.name,
]);

/** docs/product/addresses-and-routes.md#screens-and-routes's rule: what the host app is told after a navigation to `routeName`. */
export function nativeNavigationAction(
  routeName: string,
  direction: NavigationDirection,
): NativeNavigationAction {
  return historyClearingRoutes.has(routeName) ? 'clear-history' : direction;
}

/**
 * The route name docs/product/addresses-and-routes.md#screens-and-routes's rule goes by, for an absolute path: a loyalty route's name; every other page
 * (account pages, payment profiles, not found) is its own route, named by its path. Null for what is no
 * page of its own: the sign-in callback and unknown loyalty paths (both are redirected at once).
 */
export function nativeRouteName(pathname: string): string | null {
  if (isAuthCallbackPath(pathname)) return null;
  const loyaltyRoute = loyaltyRouteOf(pathname);
  return loyaltyRoute === undefined ? pathname : loyaltyRoute;
}

/** Tells the host app about a forward or backward navigation (nothing outside a webview). */
export function reportNavigation(pathname: string, direction: NavigationDirection): boolean {
  return direction === 'backward' ? didNavigateBackward(pathname) : didNavigateForward(pathname);
}

/**
 * Applies docs/product/addresses-and-routes.md#screens-and-routes's native navigation rule after every change of address in a webview. `routeNameOf`
 * maps the router's path to a route name (e.g. loyaltyRouteName); paths without a name are ignored.
 * The first page clears the history when its route says so, else asks the host to check its history
 * (arriving is not a forward move).
 */
export function useNativeNavigation(routeNameOf: (path: string) => string | null): void {
  const [location] = useLocation();
  const isWebView = useAppStore((state) => state.isWebView);
  const trackerRef = useRef<NavigationDirectionTracker | null>(null);

  const onNavigated = useEffectEvent((path: string) => {
    trackerRef.current ??= createNavigationDirectionTracker();
    const direction = trackerRef.current.next();
    const routeName = routeNameOf(path);
    if (routeName === null) return;
    const action = nativeNavigationAction(routeName, direction ?? 'forward');
    if (action === 'clear-history') clearHistory();
    else if (direction) reportNavigation(window.location.pathname, direction);
    // The first page of a visit is no move: the host is asked to look at the history itself.
    else checkHistory();
  });

  useEffect(() => {
    if (isWebView) onNavigated(location);
  }, [location, isWebView]);
}
