import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyRoute, retryFailedRoutes } from './lazy-route';

const Page = ({ name }: { name: string }) => <h1>{name}</h1>;

describe('lazyRoute', () => {
  it('renders a route loaded ahead at once, without showing the fallback', async () => {
    const Route = lazyRoute(async () => ({ default: Page }));
    await Route.preload();

    render(
      <Suspense fallback={<p>Loading</p>}>
        <Route name="Status" />
      </Suspense>,
    );

    expect(screen.getByRole('heading', { name: 'Status' })).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  });

  it('loads a route not loaded ahead on first render, showing the fallback meanwhile', async () => {
    let resolve: (module: { default: typeof Page }) => void = () => {};
    const Route = lazyRoute<{ name: string }>(() => new Promise((r) => (resolve = r)));

    render(
      <Suspense fallback={<p>Loading</p>}>
        <Route name="History" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();

    await act(async () => resolve({ default: Page }));
    expect(await screen.findByRole('heading', { name: 'History' })).toBeInTheDocument();
  });

  it('loads the chunk once however often it is asked', async () => {
    let loads = 0;
    const Route = lazyRoute(async () => {
      loads += 1;
      return { default: Page };
    });
    await Promise.all([Route.preload(), Route.preload()]);
    await Route.preload();
    expect(loads).toBe(1);
  });

  // Issue 17: a chunk that failed offline was never asked again (React.lazy keeps the rejection).
  it('loads a failed chunk again after retryFailedRoutes, and not before', async () => {
    let loads = 0;
    const Route = lazyRoute<{ name: string }>(async () => {
      loads += 1;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
      return { default: Page };
    });
    await expect(Route.preload()).rejects.toThrow(/dynamically imported/);
    expect(loads).toBe(1);
    retryFailedRoutes();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Route name="Rewards" />
      </Suspense>,
    );
    expect(await screen.findByRole('heading', { name: 'Rewards' })).toBeInTheDocument();
    expect(loads).toBe(2);
  });
});
