import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyRoute } from './lazy-route';

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
});
