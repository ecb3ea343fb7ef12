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
 * A chunk that failed to load (offline) is fetched again at the next render: React.lazy keeps its
 * rejection for ever, so a failure replaces the lazy component with a fresh one (issue 17: Retry on
 * the error page, or the connection coming back, loads the chunk instead of leaving a blank page).
 */
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
        Suspending = suspending();
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
