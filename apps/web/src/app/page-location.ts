import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-browser-location';

/** Wouter's location hooks (`<Router hook searchHook>`), answering the address of the page shown. */
export interface PageLocation {
  hook: () => [string, typeof navigate];
  searchHook: () => string;
  /** Whether the browser is at an address whose page waits for its code (the shell says it loads). */
  usePending: () => boolean;
}

// Wouter (use-browser-location) makes pushState and replaceState dispatch these events.
const historyEvents = ['popstate', 'pushState', 'replaceState', 'hashchange'] as const;

/**
 * The address the app shows: the browser's, except that a new page's address is taken only once the
 * page's code is here (`codeOf`), so the page before it stays until then.
 *
 * Wouter reads the browser's address with useSyncExternalStore, whose updates React cannot hold back as
 * a transition: a page whose code was still loading suspended, the spinner took its place, and React
 * then held the page back for its Suspense reveal throttle (300 ms). Every first visit of a page took
 * 300 ms more than its code did (seen in the every-page browser check: 330 ms from link to heading on
 * localhost, where the code comes in 10 ms). Held here, a page renders at once when it comes.
 *
 * A change of the query alone shows at once (same page). A failed load shows the page anyway, so that
 * its error boundary says so. When addresses follow each other faster than code comes, the last wins.
 */
export function createPageLocation(codeOf: (pathname: string) => Promise<unknown>): PageLocation {
  let path = '';
  let search = '';
  let pending = false;
  let wanted = 0;
  const listeners = new Set<() => void>();

  const browserChanged = () => {
    const next = { path: location.pathname, search: location.search };
    if (next.path === path && next.search === search) return;
    const ticket = ++wanted;
    const show = () => {
      if (ticket !== wanted) return;
      path = next.path;
      search = next.search;
      pending = false;
      for (const listener of listeners) listener();
    };
    if (next.path === path) return show();
    codeOf(next.path).then(show, show);
    // Said only when the code is not here already (then `show` has not run by the next task).
    setTimeout(() => {
      if (ticket !== wanted || pending || path === next.path) return;
      pending = true;
      for (const listener of listeners) listener();
    });
  };
  const subscribe = (listener: () => void) => {
    if (listeners.size === 0) {
      // Nobody listened while the address changed (start-up replaces it before the routes render).
      path = location.pathname;
      search = location.search;
      for (const event of historyEvents) addEventListener(event, browserChanged);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) for (const event of historyEvents) removeEventListener(event, browserChanged);
    };
  };
  const currentPath = () => (listeners.size === 0 ? location.pathname : path);
  const currentSearch = () => (listeners.size === 0 ? location.search : search);
  const currentPending = () => pending;

  const usePageAddress = (): [string, typeof navigate] => [
    useSyncExternalStore(subscribe, currentPath),
    navigate,
  ];
  const usePageSearch = () => useSyncExternalStore(subscribe, currentSearch);
  const usePending = () => useSyncExternalStore(subscribe, currentPending);
  return { hook: usePageAddress, searchHook: usePageSearch, usePending };
}
