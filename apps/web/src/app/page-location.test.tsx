import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { Route, Router, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyRoute } from './lazy-route';
import { createPageLocation } from './page-location';

const Page = ({ name }: { name: string }) => <h1>{name}</h1>;

/** Two pages whose code comes when the test says so, and the app's routes between them. */
function setup() {
  let arrive: (() => void) | undefined;
  let fail: (() => void) | undefined;
  const Profile = lazyRoute(async () => ({ default: () => <Page name="Profile" /> }));
  const History = lazyRoute(
    () =>
      new Promise<{ default: () => React.ReactElement }>((resolve, reject) => {
        arrive = () => resolve({ default: () => <Page name="History" /> });
        fail = () => reject(new TypeError('Failed to fetch dynamically imported module'));
      }),
  );
  const codeOf = (path: string) => (path.startsWith('/history') ? History.preload() : Profile.preload());
  const location = createPageLocation(codeOf);
  const Search = () => <p>query {location.searchHook()}</p>;
  const Pending = () => (location.usePending() ? <p>next page coming</p> : null);
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <Suspense fallback={<p>Loading</p>}>
        <Switch>
          <Route path="/profile" component={Profile} />
          <Route path="/history" component={History} />
        </Switch>
      </Suspense>
      <Search />
      <Pending />
    </Router>,
  );
  return { arrive: () => arrive!(), fail: () => fail!() };
}

/** The app on the profile page, whose code is here. */
async function startOnProfile() {
  navigate('/profile', { replace: true });
  const history = setup();
  expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
  return history;
}

afterEach(() => navigate('/', { replace: true }));

describe('the page location', () => {
  it('keeps the page shown, without a spinner, until the next page’s code is here; then shows it at once', async () => {
    const history = await startOnProfile();

    await act(async () => navigate('/history'));
    expect(window.location.pathname).toBe('/history');
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(await screen.findByText('next page coming')).toBeInTheDocument();

    await act(async () => history.arrive());
    expect(screen.getByRole('heading', { name: 'History' })).toBeInTheDocument();
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    expect(screen.queryByText('next page coming')).not.toBeInTheDocument();
  });

  it('shows a page whose code is here at once, and a change of the query alone at once', async () => {
    navigate('/history', { replace: true });
    const history = setup();
    await act(async () => history.arrive());
    expect(await screen.findByRole('heading', { name: 'History' })).toBeInTheDocument();

    await act(async () => navigate('/profile'));
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(screen.queryByText('next page coming')).not.toBeInTheDocument();
    await act(async () => navigate('/profile?tab=2'));
    expect(screen.getByText('query ?tab=2')).toBeInTheDocument();
  });

  it('takes the last address when they follow each other faster than the code comes', async () => {
    const history = await startOnProfile();

    await act(async () => navigate('/history'));
    await act(async () => navigate('/profile?again=1'));
    await act(async () => history.arrive());
    expect(screen.getByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByText('query ?again=1')).toBeInTheDocument();
  });

  it('shows the page whose code failed to come, so that its error is seen', async () => {
    const history = await startOnProfile();

    await act(async () => navigate('/history'));
    await act(async () => history.fail());
    // The route renders again and meets the failed load: the fallback, then its error boundary's turn.
    expect(screen.queryByRole('heading', { name: 'Profile' })).not.toBeInTheDocument();
  });
});
