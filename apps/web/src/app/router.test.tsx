import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import type { AuthSession } from '@/features/auth/auth-session';
import type { HttpClient, RequestConfig } from '@/lib/http';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { i18n } from '@/lib/i18n/i18n';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { contentCollection, demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { AppRoutes } from './router';
import { ServicesContext, type AppServices } from './services';
import { AppShell } from './shell/app-shell';
import { signInForTests } from '@/testing/session';

function renderApp(path: string, auth: AuthSession | null = null, overrides: Partial<HttpClient> = {}) {
  const publicRequest = vi.fn(async ({ url }: RequestConfig) => {
    const locale = url.split('/')[5]!;
    return contentCollection(locale.slice(0, 2), locale.slice(3), {}) as never;
  });
  const http = createFakeHttpClient({ publicRequest, ...overrides });
  const services: AppServices = { http, queryClient: new QueryClient(), auth, config: null };
  return renderWithProviders(
    <AppShell>
      <AppRoutes />
    </AppShell>,
    {
      path,
      http,
      wrapper: (children) => <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>,
    },
  );
}

describe('routes', () => {
  beforeEach(() => {
    useAppStore.setState({ appReady: true, contentLoaded: true, activeLanguage: 'de' });
    signInForTests(demoLoginStatus.user);
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it("sends / to the customer's account home from their language", async () => {
    const { location } = renderApp('/');

    expect(await screen.findByRole('heading', { level: 1, name: 'Dora Demo' })).toBeInTheDocument();
    expect(location.history?.at(-1)).toBe('/DE/de/myaccount');
  });

  it('lets the stored preference choose the language and carries tracking_opt_out', async () => {
    localStorage.setItem('roadpass.countryLanguage', JSON.stringify({ country: 'DE', language: 'en' }));
    const { location } = renderApp('/?tracking_opt_out=true');

    await screen.findByRole('heading', { level: 1, name: 'Dora Demo' });
    expect(location.history?.at(-1)).toBe('/DE/en/myaccount?tracking_opt_out=true');
  });

  it("replaces an account home address that does not fit the customer's country", async () => {
    const { location } = renderApp('/NL/nl/myaccount');

    await screen.findByRole('heading', { level: 1, name: 'Dora Demo' });
    expect(location.history?.at(-1)).toBe('/DE/de/myaccount');
  });

  it('shows the not-found page for an unknown address, with a way home', async () => {
    const { location } = renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'This page does not exist' })).toBeVisible();
    // A page load to the start, which signs a visitor in on the way.
    expect(screen.getByRole('link', { name: 'Go to my account' })).toHaveAttribute('href', '/');
    expect(location.history).toEqual(['/no/such/page']);
  });

  it('shows the payment methods page in the frame, with the way to the account', async () => {
    renderApp('/web/payment/customer/payment-profiles/');

    expect(await screen.findByRole('heading', { name: 'Payment methods' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'account-back' })).toHaveAttribute('href', '/');
  });

  it('signs out through the auth session', async () => {
    const auth = {
      signOut: vi.fn(() => new Promise<void>(() => {})),
    } as unknown as AuthSession;
    renderApp('/DE/de/myaccount', auth);

    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));

    expect(auth.signOut).toHaveBeenCalledOnce();
  });

  it('clears the error flags when navigating to a route without its own error handling', async () => {
    const { location } = renderApp('/DE/de/myaccount');
    await screen.findByRole('heading', { level: 1, name: 'Dora Demo' });
    act(() => useAppStore.getState().setError(true));
    expect(screen.getByRole('alert')).toBeInTheDocument();

    act(() => location.navigate('/web/payment/customer/payment-profiles/'));

    await waitFor(() =>
      expect(useAppStore.getState().error).toEqual({ page: false, overlay: false, banner: false }),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  describe('loyalty app', () => {
    const consentsOf = (granted: boolean) =>
      vi.fn(async (url: string) => {
        if (url === apiPaths.customerConsents(demoLoginStatus.user.uuid)) {
          return { data: [{ slug: LOYALTY_CORE_CONSENT, granted }] } as never;
        }
        return new Promise<never>(() => {});
      });

    it('sends an unknown loyalty path to the loyalty root, which decides where to go', async () => {
      const { location } = renderApp('/customer/loyalty-ui/no/such/page', null, { get: consentsOf(false) });

      await waitFor(() => expect(location.history).toContain('/customer/loyalty-ui/'));
      await waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/onboarding'));
      expect(location.history).not.toContain('/customer/loyalty-ui/no/such/page');
    });

    it('keeps the error flags when navigating to the signup, which handles its own errors', async () => {
      const { location } = renderApp('/customer/loyalty-ui/onboarding', null, {
        get: vi.fn(() => new Promise<never>(() => {})),
      });
      await screen.findByRole('heading', { level: 1, name: 'loyalty-onboarding-title' });
      act(() => useAppStore.getState().setError(true));

      act(() => location.navigate('/customer/loyalty-ui/signup'));

      await screen.findByRole('heading', { level: 1, hidden: true, name: 'loyalty-signup-title' });
      expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/signup');
      expect(useAppStore.getState().error).toEqual({ page: true, overlay: true, banner: true });
    });
  });
});
