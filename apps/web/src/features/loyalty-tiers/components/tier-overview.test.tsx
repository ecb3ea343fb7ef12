import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { royalGoldDetails, tiers } from '@/lib/loyalty/testing/loyalty-fixtures';
import { getByPath, renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { TierOverview } from './tier-overview';
import { signInForTests } from '@/testing/session';

const { uuid } = demoLoginStatus.user;

function renderOverview() {
  const get = vi.fn(
    getByPath({
      [apiPaths.loyaltyTierDetails(uuid)]: royalGoldDetails,
      [apiPaths.loyaltyTiers('en-DE')]: tiers,
    }),
  );
  return renderLoyalty(<TierOverview />, { path: '/tier-overview', http: createFakeHttpClient({ get }) });
}

describe('tier overview', () => {
  beforeEach(async () => {
    await applyRealTranslations('en');
    signInForTests(demoLoginStatus.user);
  });
  afterEach(async () => {
    cleanup();
    vi.useRealTimers();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it("shows the tiers in a paged carousel that moves to the customer's tier", async () => {
    vi.useFakeTimers();
    renderOverview();
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(screen.getByRole('region', { name: 'Loyalty tiers' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to card 1 of 4' })).toHaveAttribute('aria-current', 'true');

    await act(() => vi.advanceTimersByTimeAsync(1000));

    expect(screen.getByRole('button', { name: 'Go to card 3 of 4' })).toHaveAttribute('aria-current', 'true');
    const card = screen.getByRole('group', { name: 'Royal Gold, tier 3 of 4' });
    expect(within(card).getByRole('heading', { level: 2, name: 'Royal Gold' })).toBeInTheDocument();
    expect(within(card).getByText('Your tier')).toBeInTheDocument();
    expect(within(card).getByText('From 3,000 points')).toBeInTheDocument();
  });

  it('lists each tier’s rewards as links, locked or unlocked for the customer', async () => {
    renderOverview();

    const sapphire = await screen.findByRole('heading', { level: 2, name: 'Sapphire Diamond', hidden: true });
    const card = sapphire.closest('article')!;
    const airport = within(card).getByRole('link', { name: /Reward airport-pickup/, hidden: true });
    expect(airport).toHaveAttribute('href', '/customer/loyalty-ui/reward/airport-pickup');
    expect(airport).toHaveTextContent('Unlocked in Sapphire Diamond');
    expect(within(card).getByRole('link', { name: /CityBike minutes/, hidden: true })).toHaveTextContent(
      /Unlocked$/,
    );
    expect(document.title).toBe('Tiers and rewards · Roadpass');
  });
});
