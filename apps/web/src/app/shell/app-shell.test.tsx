import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { renderWithProviders } from '@/testing/render';
import { AppShell } from './app-shell';
import { ErrorBanner } from './error-banner';
import { TOAST_AUTO_CLOSE_MS } from './toasts';

const view = <p>Routed view</p>;

describe('app shell', () => {
  afterEach(() => {
    resetAppStore();
    vi.useRealTimers();
  });

  it('shows an accessible spinner named "Loading" while the app loads', () => {
    renderWithProviders(<AppShell>{view}</AppShell>);

    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByText('Routed view')).not.toBeInTheDocument();
    expect(screen.getByText('Roadpass')).toBeInTheDocument();
  });

  it('shows the routed view once ready', () => {
    useAppStore.setState({ appReady: true });
    renderWithProviders(<AppShell>{view}</AppShell>);

    expect(screen.getByText('Routed view')).toBeVisible();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('shows error page, overlay and banner, hides the view and the spinner on a page error', () => {
    useAppStore.setState({ appReady: true });
    useAppStore.getState().setError(true);
    const { container } = renderWithProviders(<AppShell>{view}</AppShell>);

    expect(screen.getByRole('img', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('Routed view')).not.toBeVisible();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    expect(container.querySelector('.overlay')).not.toBeNull();

    const banner = screen.getByRole('alert');
    expect(within(banner).getByText('Ooops. Looks like we goofed off...')).toBeInTheDocument();
    expect(within(banner).getByText('An error has occured, please try again')).toBeInTheDocument();
    expect(within(banner).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    // Cancel is hidden while the error page shows.
    expect(within(banner).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('shows no spinner during a page error before the app is ready', () => {
    useAppStore.getState().setError(true);
    renderWithProviders(<AppShell>{view}</AppShell>);
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('lists the problems of an invalid configuration', () => {
    useAppStore.getState().setConfigProblems(['identityProvider.url must be a URL (found "")']);
    renderWithProviders(<AppShell>{view}</AppShell>);

    expect(screen.getByRole('heading', { name: 'Roadpass cannot start' })).toBeInTheDocument();
    expect(screen.getByText('identityProvider.url must be a URL (found "")')).toBeInTheDocument();
  });
});

describe('error banner', () => {
  afterEach(() => resetAppStore());

  it('reloads the page on Retry', async () => {
    useAppStore.getState().setError(true);
    const reload = vi.fn();
    renderWithProviders(<ErrorBanner reload={reload} />);

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(reload).toHaveBeenCalledOnce();
  });

  it('closes only the banner on Cancel', async () => {
    useAppStore.setState({ error: { page: false, overlay: true, banner: true } });
    renderWithProviders(<AppShell>{view}</AppShell>);

    await userEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Cancel' }));

    expect(useAppStore.getState().error).toEqual({ page: false, overlay: true, banner: false });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the reference for support when a server error raised it', () => {
    useAppStore.getState().setError(true, {}, '5f0c2d9e');
    renderWithProviders(<ErrorBanner />);

    expect(screen.getByRole('alert')).toHaveTextContent('Reference for support: 5f0c2d9e');
  });

  it('shows no reference without one', () => {
    useAppStore.getState().setError(true);
    renderWithProviders(<ErrorBanner />);

    expect(screen.getByRole('alert')).not.toHaveTextContent('Reference for support');
  });

  it('hides the buttons as configured', () => {
    useAppStore.setState({
      error: { page: false, overlay: false, banner: true },
      errorButtons: { hideConfirm: true },
    });
    renderWithProviders(<ErrorBanner />);

    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('uses the translated texts when loaded', async () => {
    const { i18n } = await import('@/lib/i18n/i18n');
    i18n.addResourceBundle('en', 'translation', { 'error-banner-confirm': 'Try again' }, true, true);
    useAppStore.getState().setError(true);
    renderWithProviders(<ErrorBanner />);

    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    i18n.removeResourceBundle('en', 'translation');
  });
});

describe('toasts and notify dialog', () => {
  afterEach(() => {
    resetAppStore();
    vi.useRealTimers();
  });

  it('removes an auto-closing toast after 5 seconds and keeps the others', () => {
    vi.useFakeTimers();
    renderWithProviders(<AppShell>{view}</AppShell>);
    act(() => {
      useAppStore.getState().addToast({ message: 'Saved' });
      useAppStore.getState().addToast({ message: 'Sticky', autoClose: false });
    });

    const toasts = within(screen.getByRole('region', { name: 'Notifications' })).getAllByRole('status');
    expect(toasts.map((toast) => toast.textContent)).toEqual(['Saved×', 'Sticky×']);
    act(() => vi.advanceTimersByTime(TOAST_AUTO_CLOSE_MS - 1));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByText('Sticky')).toBeInTheDocument();
  });

  it('shows the default dialog texts and closes with Close', async () => {
    const onClose = vi.fn();
    renderWithProviders(<AppShell>{view}</AppShell>);
    act(() => useAppStore.getState().showNotify({ onClose }));

    const dialog = screen.getByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('An unexpected error occured!')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect(onClose).toHaveBeenCalledOnce();
    expect(useAppStore.getState().notify).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
