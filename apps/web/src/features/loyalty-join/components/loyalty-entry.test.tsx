import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { coreConsent, royalGoldDetails } from '@/lib/loyalty/testing/loyalty-fixtures';
import { getByPath, renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { LoyaltyEntry } from './loyalty-entry';
import { signInForTests } from '@/testing/session';

const { uuid } = demoLoginStatus.user;
const consentsPath = apiPaths.customerConsents(uuid);
const detailsPath = apiPaths.loyaltyTierDetails(uuid);
const unavailable = () => new HttpError({ status: 503, config: { url: consentsPath } });

function renderEntry(get: (url: string) => Promise<never>, path = '/') {
  const http = createFakeHttpClient({ get: vi.fn(get) });
  return { ...renderLoyalty(<LoyaltyEntry />, { path, http }), get: http.get };
}

describe('loyalty entry route', () => {
  beforeEach(async () => {
    await applyRealTranslations('en');
    signInForTests(demoLoginStatus.user);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    cleanup();
    vi.useRealTimers();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it('follows a stored redirect value loyalty/{target} and clears it', async () => {
    sessionStorage.setItem('roadpass.redirect', 'loyalty/history');
    const { location, get } = renderEntry(getByPath({}));

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/history'));
    expect(sessionStorage.getItem('roadpass.redirect')).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });

  it('ignores and clears a stored loyalty value with an unknown target', async () => {
    sessionStorage.setItem('roadpass.redirect', 'loyalty/nowhere');
    const { location } = renderEntry(getByPath({ [consentsPath]: { data: [coreConsent(false)] } }));

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/onboarding'));
    expect(sessionStorage.getItem('roadpass.redirect')).toBeNull();
  });

  it('sends a member (core consent granted) to the status, carrying tracking_opt_out', async () => {
    const { location, get } = renderEntry(
      getByPath({ [consentsPath]: { data: [coreConsent(true)] }, [detailsPath]: royalGoldDetails }),
      '/?tracking_opt_out=true',
    );

    await vi.waitFor(() =>
      expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/status?tracking_opt_out=true'),
    );
    expect(get).toHaveBeenCalledWith(consentsPath);
    // The entry is replaced: Back does not return to it.
    expect(location.history).toHaveLength(1);
  });

  it('sends a customer without the core consent to the onboarding', async () => {
    const { location } = renderEntry(getByPath({ [consentsPath]: { data: [coreConsent(false)] } }));

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/onboarding'));
  });

  it('shows the loading screen while it decides', () => {
    renderEntry(() => new Promise<never>(() => {}));

    expect(screen.getByRole('heading', { level: 1, name: 'Roadpass Rewards' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your membership…');
  });

  it('retries 3 times 2 seconds apart, then warns that the loyalty service is not responding', async () => {
    vi.useFakeTimers();
    const { get, location } = renderEntry(() => Promise.reject(unavailable()));
    const settle = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

    await settle(0);
    expect(get).toHaveBeenCalledTimes(1);
    for (const attempt of [2, 3, 4]) {
      await settle(1999);
      expect(get).toHaveBeenCalledTimes(attempt - 1);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      await settle(1);
      expect(get).toHaveBeenCalledTimes(attempt);
    }

    expect(screen.getByRole('alert')).toHaveTextContent('Loyalty service not responding');
    // Said once, in the page: no notification on top of it (issue 7, defect 4).
    expect(screen.getAllByText('Loyalty service not responding')).toHaveLength(1);
    expect(useAppStore.getState().toasts).toEqual([]);
    await settle(10_000);
    expect(get).toHaveBeenCalledTimes(4);
    expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/');
  });

  it('also retries when the loyalty service fails for a member, and goes on once it answers', async () => {
    vi.useFakeTimers();
    let detailsCalls = 0;
    const { location } = renderEntry(async (url: string) => {
      if (url === consentsPath) return { data: [coreConsent(true)] } as never;
      detailsCalls += 1;
      if (detailsCalls < 3) throw unavailable();
      return royalGoldDetails as never;
    });

    await act(() => vi.advanceTimersByTimeAsync(4000));

    expect(detailsCalls).toBe(3);
    expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/status');
  });

  it('starts again with Retry after the warning', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let failing = true;
    const { location, get } = renderEntry(async () => {
      if (failing) throw unavailable();
      return { data: [coreConsent(false)] } as never;
    });
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(get).toHaveBeenCalledTimes(4);

    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await vi.waitFor(() => expect(location.history?.at(-1)).toBe('/customer/loyalty-ui/onboarding'));
    expect(get).toHaveBeenCalledTimes(5);
  });
});
