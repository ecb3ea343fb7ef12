import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError } from '@/lib/errors/report-error';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { AppErrorBoundary, RouteErrorBoundary } from './error-boundaries';

function Broken(): never {
  throw new Error('render failed');
}

describe('error boundaries', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    resetAppStore();
    vi.restoreAllMocks();
  });

  it('turns a page that throws while rendering into the shell’s error page and banner, and reports it', () => {
    render(
      <RouteErrorBoundary resetKey="/a">
        <Broken />
      </RouteErrorBoundary>,
    );
    expect(useAppStore.getState().error).toEqual({ page: true, overlay: true, banner: true });
    expect(console.error).toHaveBeenCalledWith('Roadpass route error', expect.any(Error), expect.any(String));
  });

  it('does the same for a route chunk that cannot be loaded', async () => {
    const failedChunk = new TypeError('Failed to fetch dynamically imported module: /assets/faq-route.js');
    const Lazy = lazy(() => Promise.reject(failedChunk));
    render(
      <RouteErrorBoundary resetKey="/faq">
        <Suspense fallback={<p>Loading</p>}>
          <Lazy />
        </Suspense>
      </RouteErrorBoundary>,
    );
    await vi.waitFor(() => expect(useAppStore.getState().error.page).toBe(true));
    expect(isChunkLoadError(failedChunk)).toBe(true);
    expect(isChunkLoadError(new Error('render failed'))).toBe(false);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/password-route.css'))).toBe(true);
  });

  it('renders the next route after a navigation', () => {
    const page = (path: string) => (
      <RouteErrorBoundary resetKey={path}>
        {path === '/broken' ? <Broken /> : <p>Fine page</p>}
      </RouteErrorBoundary>
    );
    const { rerender } = render(page('/broken'));
    expect(screen.queryByText('Fine page')).toBeNull();
    rerender(page('/fine'));
    expect(screen.getByText('Fine page')).toBeInTheDocument();
  });

  it('shows a page with Retry when the frame itself fails, never a blank page', () => {
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('img', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('An error has occurred, please try again');
  });
});
