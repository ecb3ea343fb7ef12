import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, type LoyaltyTierDetails } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { royalGoldDetails, royalGoldForecast, tiers } from '@/lib/loyalty/testing/loyalty-fixtures';
import { getByPath, renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { LoyaltyStatus } from './loyalty-status';
import { signInForTests } from '@/testing/session';

const { uuid } = demoLoginStatus.user;
const detailsPath = apiPaths.loyaltyTierDetails(uuid);

function renderStatus(details: LoyaltyTierDetails | Error, path = '/status') {
  const get = vi.fn(
    getByPath({
      [detailsPath]: details,
      [apiPaths.loyaltyExpiryForecast(uuid)]: royalGoldForecast,
      [apiPaths.loyaltyTiers('de-DE')]: tiers,
      [apiPaths.loyaltyTiers('en-DE')]: tiers,
    }),
  );
  return { ...renderLoyalty(<LoyaltyStatus />, { path, http: createFakeHttpClient({ get }) }), get };
}

describe('loyalty status', () => {
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

  it('shows points, tier, expiry and the way to the next tier in German', async () => {
    await applyRealTranslations('de');
    const { get } = renderStatus(royalGoldDetails);

    expect(await screen.findByText('4.750')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Meine Prämien' })).toBeInTheDocument();
    expect(screen.getByText('Royal Gold')).toBeInTheDocument();
    expect(screen.getByText('Gültig bis 30.11.2026')).toBeInTheDocument();
    expect(screen.getByText('Noch 1.250 Punkte bis Sapphire Diamond')).toBeInTheDocument();
    const progress = screen.getByRole('progressbar', { name: 'Fortschritt bis Sapphire Diamond' });
    // 4 750 of the 3 000 → 6 000 span.
    expect(progress).toHaveAttribute('aria-valuenow', '58');
    expect(get).toHaveBeenCalledWith(apiPaths.loyaltyTiers('de-DE'), { params: { legalEntity: 'DE' } });
    expect(document.title).toBe('Meine Prämien · Roadpass');
  });

  it('links to the tier overview, the history and the FAQ, carrying tracking_opt_out', async () => {
    await applyRealTranslations('en');
    renderStatus(royalGoldDetails, '/status?tracking_opt_out=true');

    // Not while the figures load (they would push the links down when they arrive).
    expect(screen.queryByRole('link', { name: 'Tiers and rewards' })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Tiers and rewards' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/tier-overview?tracking_opt_out=true',
    );
    expect(screen.getByRole('link', { name: 'Points history' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/history?tracking_opt_out=true',
    );
    expect(screen.getByRole('link', { name: 'Questions and answers' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/faq?tracking_opt_out=true',
    );
  });

  it('says so at the top tier', async () => {
    await applyRealTranslations('en');
    renderStatus({ ...royalGoldDetails, tier: 'sapphire-diamond', points: 7200 });

    expect(await screen.findByText('You have reached the highest tier.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Numbers as English writes them, whatever the country (issue 10: "4.500 points" in English).
    expect(screen.getByText('7,200')).toBeInTheDocument();
  });

  it('hides the expiry for the entry tier', async () => {
    await applyRealTranslations('en');
    renderStatus({ ...royalGoldDetails, tier: 'sky-blue', points: 250, tierExpirationDate: null });

    expect(await screen.findByText('750 points to Ocean Silver')).toBeInTheDocument();
    expect(screen.queryByText(/Valid until/)).not.toBeInTheDocument();
  });

  it('offers a retry when the loyalty service fails', async () => {
    await applyRealTranslations('en');
    let fail = true;
    const get = vi.fn(async (url: string) => {
      if (url === detailsPath && fail) throw new HttpError({ status: 503, config: { url } });
      if (url === apiPaths.loyaltyExpiryForecast(uuid)) return royalGoldForecast as never;
      return (url === detailsPath ? royalGoldDetails : tiers) as never;
    });
    renderLoyalty(<LoyaltyStatus />, { path: '/status', http: createFakeHttpClient({ get }) });

    expect(await screen.findByRole('alert')).toHaveTextContent('This could not be loaded');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('4,750')).toBeInTheDocument();
  });
});
