import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { apiPaths, type LoyaltyExpiryForecast } from '@roadpass/contracts';
import { useAppStore } from '@/lib/state/app-store';
import { storageKeys } from '@/lib/storage/storage';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { signInForTests } from '@/testing/session';
import { dueHint, usePointsExpiryHint } from './points-expiry-hint';

// docs/product/loyalty.md#expiry-reminders: in the webview, with loyalty notifications on and "Points
// reminders" on, the native app gets a push hint through the bridge, once per expiry and reminder.
const DAY = 86_400_000;
const now = Date.parse('2027-02-20T09:00:00.000Z');
const uuid = demoLoginStatus.user.uuid;

const forecast = (daysAhead: number, points = 850): LoyaltyExpiryForecast => ({
  months: [],
  nextExpiry: { points, date: new Date(now + daysAhead * DAY).toISOString() },
  tierKeep: null,
  reminderDays: [30, 7],
});

describe('dueHint', () => {
  it('names the nearest reminder window an expiry is in, and nothing outside the windows', () => {
    expect(dueHint(forecast(40), now)).toBeNull();
    expect(dueHint(forecast(20), now)?.key).toBe(`${new Date(now + 20 * DAY).toISOString()}:days-30`);
    expect(dueHint(forecast(5), now)?.key).toBe(`${new Date(now + 5 * DAY).toISOString()}:days-7`);
    expect(dueHint({ ...forecast(5), nextExpiry: null }, now)).toBeNull();
  });
});

function Hint({ active }: { active: boolean }) {
  usePointsExpiryHint(active);
  return null;
}

describe('the push hint through the bridge', () => {
  let postMessage: ReturnType<typeof vi.fn<(payload: unknown) => void>>;
  beforeEach(() => {
    vi.useFakeTimers({ now, toFake: ['Date'] });
    signInForTests(demoLoginStatus.user);
    postMessage = vi.fn<(payload: unknown) => void>();
    window.webkit = { messageHandlers: { pointsExpiryHint: { postMessage } } };
    useAppStore.getState().setEnvironment({ isWebView: true, trackingOptOut: false });
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    delete window.webkit;
    useAppStore.getState().setEnvironment({ isWebView: false, trackingOptOut: false });
    localStorage.clear();
  });

  const http = (reminders: boolean, days = 20) =>
    createFakeHttpClient({
      get: vi.fn((path: string) =>
        Promise.resolve(
          path === apiPaths.loyaltyExpiryForecast(uuid) ? forecast(days) : { pointsReminders: reminders },
        ),
      ) as never,
    });

  it('hands the host one hint per expiry and reminder, with how many and when', async () => {
    renderWithProviders(<Hint active />, { http: http(true) });
    await waitFor(() => expect(postMessage).toHaveBeenCalledTimes(1));
    expect(postMessage.mock.calls[0]![0]).toMatchObject({
      type: 'pointsExpiryHint',
      points: 850,
      key: `${new Date(now + 20 * DAY).toISOString()}:days-30`,
    });
    expect(localStorage.getItem(storageKeys.pointsExpiryHints)).toContain(':days-30');

    // Opened again (a new page load): the same reminder is not handed over twice.
    renderWithProviders(<Hint active />, { http: http(true) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(postMessage).toHaveBeenCalledTimes(1);
  });

  it('hands nothing over when "Points reminders" is off or loyalty notifications are off', async () => {
    const off = http(false);
    renderWithProviders(<Hint active />, { http: off });
    await waitFor(() => expect(off.get).toHaveBeenCalledTimes(2));
    const inactive = http(true);
    renderWithProviders(<Hint active={false} />, { http: inactive });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inactive.get).not.toHaveBeenCalled();
    expect(postMessage).not.toHaveBeenCalled();
  });
});
