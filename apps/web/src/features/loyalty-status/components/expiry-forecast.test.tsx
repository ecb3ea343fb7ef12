import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { royalGoldDetails, royalGoldForecast, tiers } from '@/lib/loyalty/testing/loyalty-fixtures';
import { getByPath, renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { signInForTests } from '@/testing/session';
import { ExpiryChart } from './expiry-chart';
import { LoyaltyStatus } from './loyalty-status';

const { uuid } = demoLoginStatus.user;

function renderStatus(forecast: unknown = royalGoldForecast) {
  const get = vi.fn(
    getByPath({
      [apiPaths.loyaltyTierDetails(uuid)]: royalGoldDetails,
      [apiPaths.loyaltyExpiryForecast(uuid)]: forecast,
      [apiPaths.loyaltyTiers('de-DE')]: tiers,
      [apiPaths.loyaltyTiers('en-DE')]: tiers,
    }),
  );
  return {
    ...renderLoyalty(<LoyaltyStatus />, { path: '/status', http: createFakeHttpClient({ get }) }),
    get,
  };
}

describe('expiry chart', () => {
  afterEach(cleanup);

  it('is a table for screen readers: a caption, a month and a points column, one row per month', () => {
    render(
      <ExpiryChart
        months={royalGoldForecast.months}
        locale="en-DE"
        caption="Points that expire in each of the next 12 months"
        monthHeader="Month"
        pointsHeader="Points expiring"
      />,
    );
    const table = screen.getByRole('table', { name: 'Points that expire in each of the next 12 months' });
    expect(
      screen.getByRole('figure', { name: 'Points that expire in each of the next 12 months' }),
    ).toContainElement(table);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Month', 'Points expiring']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(within(rows[0]!).getByRole('rowheader')).toHaveTextContent('March 2026');
    expect(within(rows[0]!).getByRole('cell')).toHaveTextContent('850');
    expect(within(rows[3]!).getByRole('cell')).toHaveTextContent('1,200');
    expect(within(rows[1]!).getByRole('cell')).toHaveTextContent('0');

    // The drawing is for the eye only: hidden from the accessibility tree, one bar per month with points.
    const svg = screen.getByTestId('expiry-chart-svg');
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg.querySelectorAll('rect')).toHaveLength(8);
    const heights = [...svg.querySelectorAll('rect')].map((r) => Number(r.getAttribute('height')));
    // The highest bar is the month with the most points (June, 1 200).
    expect(Math.max(...heights)).toBe(heights[2]);
  });
});

describe('expiry forecast on the status page', () => {
  beforeEach(() => {
    signInForTests(demoLoginStatus.user);
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it('says when the nearest points expire and what keeps the tier, in English', async () => {
    await applyRealTranslations('en');
    renderStatus();
    expect(await screen.findByText('850 points expire on 1 March')).toBeInTheDocument();
    expect(screen.getByText('Collect 500 more points by 30 November to keep Royal Gold')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Points expiring' })).toBeInTheDocument();
    expect(
      screen.getByRole('table', { name: 'Points that expire in each of the next 12 months' }),
    ).toBeInTheDocument();
  });

  it('speaks German, and says when nothing expires and the tier is already kept', async () => {
    await applyRealTranslations('de');
    renderStatus({
      ...royalGoldForecast,
      months: royalGoldForecast.months.map((m) => ({ ...m, points: 0 })),
      nextExpiry: null,
      tierKeep: { tier: 'royal-gold', date: '2026-11-30T00:00:00.000Z', pointsNeeded: 0 },
    });
    expect(
      await screen.findByText('In den nächsten 12 Monaten verfallen keine deiner Punkte.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Du hast genug Punkte gesammelt, um Royal Gold am 30. November zu behalten.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('table', { name: 'Punkte, die in jedem der nächsten 12 Monate verfallen' }),
    ).toBeInTheDocument();
  });

  it('offers a retry when the forecast cannot be loaded, and keeps the figures', async () => {
    await applyRealTranslations('en');
    const { get } = renderStatus(
      new HttpError({
        status: 503,
        config: { url: 'forecast' },
        headers: new Headers({ 'x-request-id': '0a1b2c3d-0000-4000-8000-000000000000' }),
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load when your points expire.');
    // The reference for support (docs/product/states.md#a-reference-for-support).
    expect(alert).toHaveTextContent('Reference for support: 0a1b2c3d');
    expect(screen.getByText('4,750')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(get.mock.calls.filter(([url]) => url === apiPaths.loyaltyExpiryForecast(uuid))).toHaveLength(2);
  });
});
