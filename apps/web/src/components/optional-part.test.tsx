import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { optionalPart } from './optional-part';

/** Stands for the shell's boundary around the whole app: one alert instead of everything. */
class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p role="alert">Something went wrong</p> : this.props.children;
  }
}

const offline = () => new Error('Unable to preload CSS for http://localhost/assets/field-B0eDA384.css');

describe('a part of the frame loaded on demand', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('is left out when its code cannot be downloaded, the app stays, and it comes when back online', async () => {
    let online = false;
    const load = vi.fn(async () => {
      if (!online) throw offline();
      return { default: () => <p>Privacy settings</p> };
    });
    const Part = optionalPart(load);
    render(
      <AppErrorBoundary>
        <h1>Points history</h1>
        <Part />
      </AppErrorBoundary>,
    );
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Points history' })).toBeVisible();
    expect(screen.queryByText('Privacy settings')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();

    online = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Privacy settings')).toBeVisible();
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('heading', { name: 'Points history' })).toBeVisible();
  });

  it('passes any other error on to the shell', async () => {
    const Part = optionalPart(async () => ({
      default: (): never => {
        throw new Error('render failed');
      },
    }));
    render(
      <AppErrorBoundary>
        <h1>Points history</h1>
        <Part />
      </AppErrorBoundary>,
    );
    expect(await screen.findByRole('alert')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Points history' })).toBeNull();
  });
});

describe('code loaded on demand', () => {
  it('goes through optionalPart or lazyRoute, which survive a failed download (React.lazy alone takes the app down)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '..');
    // The two helpers themselves, and the deletion notice, which must stand in front of every page:
    // when its code cannot load, the shell's error page (with its retry) is the right answer.
    const allowed = new Set([
      'components/optional-part.tsx',
      'app/lazy-route.tsx',
      'features/account-data-rights/components/deletion-guard.tsx',
    ]);
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => !allowed.has(file) && /\blazy\(/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
