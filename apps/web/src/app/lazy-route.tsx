import { lazy, type ComponentType } from 'react';

/** A route component loaded on demand that can also be loaded ahead (`preload`) from its address. */
export interface LazyRoute<P extends object> {
  (props: P): React.ReactElement;
  preload(): Promise<void>;
}

/**
 * Like React.lazy, but a route loaded ahead renders at once: React.lazy suspends on its first render
 * even when its chunk is already there, and React then holds the page back for its Suspense reveal
 * throttle (300 ms). Start-up preloads the route of the address while it signs in (issue 10).
 *
 * A chunk that failed to load (offline) can be fetched again: React.lazy keeps its rejection for
 * ever, so `retryFailedRoutes` gives each failed route a fresh lazy component (issue 17: Retry on the
 * error page, or the connection coming back, loads the chunk). Not at once on failure: the render that
 * carries the error to the error boundary would then load it again, and so on while offline.
 */
const failedRoutes = new Set<() => void>();

/** Lets every route whose chunk failed to load try again at its next render. */
export function retryFailedRoutes(): void {
  for (const reset of failedRoutes) reset();
  failedRoutes.clear();
}

export function lazyRoute<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyRoute<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        loading = undefined;
        failedRoutes.add(() => {
          Suspending = suspending();
        });
        throw error;
      },
    ));
  const suspending = () =>
    lazy(async () => {
      await preload();
      return { default: loaded! };
    });
  let Suspending = suspending();
  const Route = (props: P) => {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Suspending {...props} />;
  };
  Route.preload = preload;
  return Route;
}
