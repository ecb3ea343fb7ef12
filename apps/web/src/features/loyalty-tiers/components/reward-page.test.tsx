import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths, type LoyaltyTierDetails } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { royalGoldDetails, tiers } from '@/lib/loyalty/testing/loyalty-fixtures';
import { renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { RewardPage } from './reward-page';
import { signInForTests } from '@/testing/session';

const { uuid } = demoLoginStatus.user;
const codePath = apiPaths.loyaltyPartnerCode(uuid, 'city-bike');
const partnerCode = { slug: 'city-bike', code: 'RP-7Q2K-94XD', createdAt: '2026-03-01T10:00:00.000Z' };
const notFound = () =>
  new HttpError({
    status: 404,
    config: { url: codePath },
    body: { status: 404, code: 'partner_code_not_found', message: 'No code yet' },
  });

/** A fake loyalty server: tier details, tiers, and the partner code once it was generated. */
function fakeServer(details: LoyaltyTierDetails, existingCode: typeof partnerCode | null = null) {
  let code = existingCode;
  const get = vi.fn(async (url: string) => {
    if (url === apiPaths.loyaltyTierDetails(uuid)) return details as never;
    if (url === apiPaths.loyaltyTiers('en-DE')) return tiers as never;
    if (url === codePath) {
      if (!code) throw notFound();
      return code as never;
    }
    throw new Error(`Unexpected GET ${url}`);
  });
  const post = vi.fn(async (url: string) => {
    expect(url).toBe(codePath);
    code = partnerCode;
    return code as never;
  });
  return createFakeHttpClient({ get, post });
}

function renderReward(slug: string, http = fakeServer(royalGoldDetails)) {
  return { ...renderLoyalty(<RewardPage slug={slug} />, { path: `/reward/${slug}`, http }), http };
}

describe('reward page', () => {
  let writeText: ReturnType<typeof vi.fn>;
  beforeEach(async () => {
    await applyRealTranslations('en');
    signInForTests(demoLoginStatus.user);
    writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it('shows the reward from the tiers: title, description, how-to and benefits per tier', async () => {
    renderReward('free-parking');

    expect(await screen.findByRole('heading', { level: 1, name: 'Reward free-parking' })).toBeInTheDocument();
    expect(screen.getByText('Description of free-parking')).toBeInTheDocument();
    expect(screen.getByText('How to use free-parking')).toBeInTheDocument();
    expect(screen.getByText('Unlocked')).toBeInTheDocument();
    const benefits = screen.getByRole('heading', { name: 'Benefits per tier' }).closest('section')!;
    expect(benefits).toHaveTextContent('Ocean Silver');
    expect(benefits).toHaveTextContent('Royal Gold');
    expect(screen.queryByRole('button', { name: 'Get my code' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to tiers and rewards' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/tier-overview',
    );
  });

  it('generates a partner code on request (none yet: 404), shows it and copies it', async () => {
    const { http } = renderReward('city-bike');

    await userEvent.click(await screen.findByRole('button', { name: 'Get my code' }));

    expect(await screen.findByText('RP-7Q2K-94XD')).toBeInTheDocument();
    expect(http.post).toHaveBeenCalledOnce();
    expect(screen.getByText('Use this code with CityBike.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get my code' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Copy code' }));

    expect(writeText).toHaveBeenCalledWith('RP-7Q2K-94XD');
    await vi.waitFor(() =>
      expect(useAppStore.getState().toasts).toEqual([
        expect.objectContaining({ type: 'success', message: 'Code copied' }),
      ]),
    );
  });

  it('shows the code the server already holds (the same after a reload), without generating one', async () => {
    const { http } = renderReward('city-bike', fakeServer(royalGoldDetails, partnerCode));

    expect(await screen.findByText('RP-7Q2K-94XD')).toBeInTheDocument();
    expect(http.post).not.toHaveBeenCalled();
  });

  it('shows where a locked reward unlocks, without a code button', async () => {
    const { http } = renderReward('city-bike', fakeServer({ ...royalGoldDetails, tier: 'ocean-silver' }));

    expect(await screen.findByText('Unlocked in Royal Gold')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get my code' })).not.toBeInTheDocument();
    expect(http.get).not.toHaveBeenCalledWith(codePath);
  });

  it('tells the customer when the code cannot be generated', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const http = fakeServer(royalGoldDetails);
    vi.mocked(http.post).mockRejectedValue(new HttpError({ status: 503, config: { url: codePath } }));
    renderReward('city-bike', http);

    await userEvent.click(await screen.findByRole('button', { name: 'Get my code' }));

    await vi.waitFor(() =>
      expect(useAppStore.getState().toasts).toEqual([
        expect.objectContaining({
          type: 'error',
          message: 'Your code could not be created. Please try again.',
        }),
      ]),
    );
    expect(screen.getByRole('button', { name: 'Get my code' })).toBeEnabled();
  });

  it('answers an unknown reward with a friendly not-found and a way back', async () => {
    renderReward('no-such-reward');

    expect(await screen.findByRole('heading', { level: 1, name: 'Reward not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tiers and rewards' })).toHaveAttribute(
      'href',
      '/customer/loyalty-ui/tier-overview',
    );
  });
});
