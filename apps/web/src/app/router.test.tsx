import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, LOYALTY_CORE_CONSENT, type AccountDeletionStatus } from '@roadpass/contracts';
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

let deletion: AccountDeletionStatus | null = null;

function renderApp(path: string, auth: AuthSession | null = null, overrides: Partial<HttpClient> = {}) {
  const publicRequest = vi.fn(async ({ url }: RequestConfig) => {
    const locale = url.split('/')[5]!;
    return contentCollection(locale.slice(0, 2), locale.slice(3), {}) as never;
  });
  // Nothing scheduled unless a test says so: the deletion guard stands in front of every signed-in page.
  const get = overrides.get ?? createFakeHttpClient().get;
  const http = createFakeHttpClient({
    publicRequest,
    ...overrides,
    get: vi.fn((url: string, config?: RequestConfig) =>
      url === apiPaths.accountDeletion
        ? Promise.resolve((deletion ?? { blockers: [], deletion: null, graceDays: 30 }) as never)
        : get(url, config),
    ) as HttpClient['get'],
  });
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
    deletion = null;
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it("sends / to the customer's account home from their language", async () => {
    const { location } = renderApp('/');

    // The first test loads the route chunks cold (and the deletion guard asks first): more than 1 s on a
    // loaded machine.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dora Demo' }, { timeout: 5000 }),
    ).toBeInTheDocument();
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

  // docs/product/data-rights.md#close-my-account: while a deletion is scheduled, any signed-in page
  // (a deep link into the loyalty app here) shows "Your account will be deleted on …" first.
  describe('a scheduled deletion', () => {
    const scheduled: AccountDeletionStatus = {
      blockers: [],
      deletion: { requestedAt: '2027-01-01T09:00:00.000Z', scheduledFor: '2027-01-31T09:00:00.000Z' },
      graceDays: 30,
    };

    it('stands in front of a deep link into the loyalty app, and "Keep my account" lets the page show', async () => {
      deletion = scheduled;
      const del = vi.fn(async () => ({ ...scheduled, deletion: null }) as never);
      const { location } = renderApp('/customer/loyalty-ui/onboarding', null, {
        get: vi.fn(() => new Promise<never>(() => {})),
        delete: del,
      });
      await screen.findByRole('heading', { level: 1, name: 'close-title' });
      expect(screen.getByRole('heading', { level: 2, name: 'close-scheduled-title' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'loyalty-onboarding-title' })).not.toBeInTheDocument();

      await userEvent.click(screen.getByRole('button', { name: 'close-keep' }));
      expect(del).toHaveBeenCalledWith(apiPaths.accountDeletion);
      await screen.findByRole('heading', { level: 1, name: 'loyalty-onboarding-title' });
      expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/onboarding');
    });

    it('does not stand in front of the pages of e-mail links', async () => {
      deletion = scheduled;
      renderApp('/newsletter/unsubscribe/some-token', null, {
        publicRequest: vi.fn(() => new Promise<never>(() => {})) as never,
      });
      await waitFor(() =>
        expect(screen.queryByRole('heading', { level: 1, name: 'close-title' })).toBeNull(),
      );
      expect(screen.queryByRole('button', { name: 'close-keep' })).not.toBeInTheDocument();
    });
  });
});
