import { useEffect } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useFocusOnNavigation } from './route-focus';

interface PageState {
  location: string;
  /** The main area's heading; undefined: the page shows none yet (a fallback, its data loading). */
  heading?: string;
  title?: string;
}

function Frame({ location, heading, title }: PageState) {
  const announcement = useFocusOnNavigation(location);
  // Pages set their title in an effect, after their heading shows (usePageTitle).
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  return (
    <>
      <p data-testid="announcement">{announcement}</p>
      <nav>
        <a href="/loyalty">Loyalty</a>
      </nav>
      <main id="main">{heading && <h1>{heading}</h1>}</main>
    </>
  );
}

function setUp(state: PageState) {
  const view = render(<Frame {...state} />);
  return (next: PageState) => act(() => view.rerender(<Frame {...next} />));
}

function clickLink() {
  const link = screen.getByRole('link', { name: 'Loyalty' });
  link.addEventListener('click', (event) => event.preventDefault(), { once: true });
  link.focus();
  act(() => link.click());
}

describe('useFocusOnNavigation', () => {
  afterEach(() => vi.useRealTimers());

  it('moves the focus to the new heading after a link and announces the page title', async () => {
    const show = setUp({ location: '/home', heading: 'Home', title: 'Home' });
    clickLink();
    show({ location: '/loyalty', heading: 'Status', title: 'Status · Roadpass' });

    expect(screen.getByRole('heading', { name: 'Status' })).toHaveFocus();
    await waitFor(() => expect(screen.getByTestId('announcement')).toHaveTextContent('Status · Roadpass'));
  });

  it('follows a redirect however long it takes, and waits for a heading that shows late', async () => {
    const show = setUp({ location: '/home', heading: 'Home' });
    clickLink();
    show({ location: '/loyalty' });
    // The entry route's data is slow: its redirect comes 10 s later (a clock used to give up after 3 s).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000);
    show({ location: '/loyalty/status' });
    expect(screen.getByRole('link', { name: 'Loyalty' })).toHaveFocus();

    show({ location: '/loyalty/status', heading: 'Status' });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Status' })).toHaveFocus());
  });

  it('passes the focus on when the focused heading is replaced, and skips a heading React hid', async () => {
    const show = setUp({ location: '/home', heading: 'Home' });
    clickLink();
    show({ location: '/loyalty', heading: 'Status' });
    expect(screen.getByRole('heading', { name: 'Status' })).toHaveFocus();

    // A Suspense fallback hides the old content with display: none, then the page remounts.
    const hidden = screen.getByRole('heading', { name: 'Status' });
    act(() => hidden.style.setProperty('display', 'none', 'important'));
    show({ location: '/loyalty' });
    show({ location: '/loyalty', heading: 'Status again' });
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Status again' })).toHaveFocus());
  });

  it('leaves the focus alone on navigations the app makes by itself', () => {
    const show = setUp({ location: '/', heading: 'Start' });
    const link = screen.getByRole('link', { name: 'Loyalty' });
    link.focus();
    show({ location: '/home', heading: 'Home' });
    expect(link).toHaveFocus();
  });

  it('stops following once the customer presses a key, so a late page does not take their focus', async () => {
    const show = setUp({ location: '/home', heading: 'Home' });
    clickLink();
    show({ location: '/loyalty' });
    const link = screen.getByRole('link', { name: 'Loyalty' });
    act(() => {
      link.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    });
    show({ location: '/loyalty/status', heading: 'Status' });
    await act(async () => {});
    expect(link).toHaveFocus();
  });

  it('moves the focus after Back and Forward', () => {
    const show = setUp({ location: '/loyalty', heading: 'Status' });
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    show({ location: '/home', heading: 'Home' });
    expect(screen.getByRole('heading', { name: 'Home' })).toHaveFocus();
  });
});
