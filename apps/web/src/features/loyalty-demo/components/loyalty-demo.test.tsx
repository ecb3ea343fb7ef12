import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tier, TierList, TierSlug } from '@roadpass/contracts';
import { i18n } from '@/lib/i18n/i18n';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import english from '../../../../../../content/translations/en.json';
import { LoyaltyDemo } from './loyalty-demo';
import { signInForTests } from '@/testing/session';

function tier(slug: TierSlug, title: string, threshold: number, rewardTitles: string[]): Tier {
  return {
    slug,
    threshold,
    information: { title: { id: slug, text: title }, text: `${title} members ride further.`, image: '' },
    rewards: rewardTitles.map((rewardTitle, index) => ({
      slug: `${slug}-reward-${index}`,
      unlockedIn: slug,
      title: rewardTitle,
      benefitText: `${rewardTitle} for ${title}`,
      description: '',
      howTo: '',
      image: '',
      partnerCode: false,
      partnerName: '',
    })),
  };
}

const skyBlue = tier('sky-blue', 'Sky blue', 0, ['Welcome bonus']);
const royalGold = tier('royal-gold', 'Royal gold', 3000, ['Priority support', 'City bike']);
// Higher tiers keep the rewards of lower ones; the demo lists only what is new in a tier.
royalGold.rewards.push({ ...skyBlue.rewards[0]!, benefitText: 'Bigger welcome bonus' });

const tiers: TierList = [
  skyBlue,
  tier('ocean-silver', 'Ocean silver', 1000, ['Free unlock']),
  royalGold,
  tier('sapphire-diamond', 'Sapphire diamond', 6000, ['Airport parking']),
];

const tierPath = (locale: string) => `/api/core-web/content/loyalty/tier/${locale}`;

function renderDemo(get = vi.fn(async (_url: string, _config?: unknown) => tiers as never)) {
  const http = createFakeHttpClient({ get });
  return { ...renderWithProviders(<LoyaltyDemo />, { path: '/customer/loyalty-ui/demo', http }), get };
}

const tierCarousel = () => screen.findByRole('region', { name: 'Loyalty tiers' });

describe('the loyalty demo page', () => {
  beforeAll(() => {
    i18n.addResourceBundle('en', 'translation', english, true, true);
  });
  beforeEach(() => {
    resetAppStore();
    resetLoyaltyStore();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the programme’s tiers in a carousel with pager dots, signed out, for DE', async () => {
    const { get } = renderDemo();

    expect(
      screen.getByRole('heading', { level: 1, name: 'Discover the loyalty programme' }),
    ).toBeInTheDocument();
    const carousel = await tierCarousel();

    expect(get).toHaveBeenCalledWith(tierPath('en-DE'), { params: { legalEntity: 'DE' } });
    expect(within(carousel).getByRole('heading', { level: 3, name: 'Sky blue' })).toBeInTheDocument();
    expect(within(carousel).getByText('From 0 points')).toBeInTheDocument();
    expect(within(carousel).getByText('Welcome bonus')).toBeInTheDocument();
    const dots = within(carousel).getAllByRole('button', { name: /^Go to card/ });
    expect(dots).toHaveLength(4);
    expect(dots.filter((dot) => dot.getAttribute('aria-current') === 'true')).toEqual([dots[0]]);
    expect(document.title).toBe('Discover the loyalty programme · Roadpass');
  });

  it('names each tier card and moves through them', async () => {
    renderDemo();
    const carousel = await tierCarousel();

    await userEvent.click(within(carousel).getByRole('button', { name: 'Go to card 3 of 4' }));

    expect(within(carousel).getByRole('group', { name: 'Royal gold, 3 of 4' })).toBeInTheDocument();
    expect(within(carousel).getByRole('heading', { level: 3, name: 'Royal gold' })).toBeInTheDocument();
    // Numbers as the visitor's language (English) writes them.
    const points = new Intl.NumberFormat('en').format(3000);
    expect(within(carousel).getByText(`From ${points} points`)).toBeInTheDocument();
    const royalGoldCard = within(carousel).getByRole('article', { name: 'Royal gold' });
    expect(within(royalGoldCard).getByText('Priority support')).toBeInTheDocument();
    expect(within(royalGoldCard).queryByText('Welcome bonus')).not.toBeInTheDocument();
    expect(within(carousel).getByText('Royal gold, 3 of 4', { selector: '[aria-live]' })).toBeInTheDocument();
  });

  it('asks for the tiers in the active language and the signed-in customer’s country', async () => {
    signInForTests({ ...demoLoginStatus.user, legalEntityId: 1, legalEntityIso: 'NL' });
    useAppStore.setState({ activeLanguage: 'nl' });
    const { get } = renderDemo();

    await tierCarousel();
    expect(get).toHaveBeenCalledWith(tierPath('nl-NL'), { params: { legalEntity: 'NL' } });
  });

  it('says it is loading until the tiers arrive', async () => {
    let answer: (tiers: TierList) => void = () => {};
    renderDemo(vi.fn(() => new Promise<never>((resolve) => (answer = resolve as never))));

    expect(screen.getByRole('status')).toHaveTextContent('Loading the tiers…');
    // The way in waits below the tiers: nothing is pushed down the page when they arrive.
    expect(screen.queryByRole('link', { name: 'Sign in and join' })).not.toBeInTheDocument();
    answer(tiers);
    expect(await tierCarousel()).toBeInTheDocument();
    expect(screen.queryByText('Loading the tiers…')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in and join' })).toBeInTheDocument();
  });

  it('says so when the tiers cannot be loaded, and loads them again on Try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const get = vi
      .fn()
      .mockRejectedValueOnce(new Error('503'))
      .mockResolvedValue(tiers as never);
    renderDemo(get);

    expect(await screen.findByRole('alert')).toHaveTextContent('The tiers could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await tierCarousel()).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('says when there are no tiers', async () => {
    renderDemo(vi.fn(async () => [] as never));
    expect(
      await screen.findByText('There are no tiers to show at the moment. Please come back later.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Loyalty tiers' })).not.toBeInTheDocument();
  });

  it('is a page for prospective members: no developer labels, and a way to sign in and join', async () => {
    renderDemo();
    await tierCarousel();

    // Issue 7: the showcase had "xs · 24 px" labels and a button to "Show the error banner".
    expect(screen.queryByText(/\d+ px/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /banner|toast|confirmation/i })).not.toBeInTheDocument();
    const join = screen.getByRole('link', { name: 'Sign in and join' });
    expect(join).toHaveAttribute('href', '/customer/loyalty-ui/');
  });

  it('shows the tiers of the country start-up chose for a visitor (?locale=hu-HU)', async () => {
    useAppStore.getState().setHomeLocation('HU');
    useAppStore.setState({ activeLanguage: 'hu' });
    const { get } = renderDemo();

    await tierCarousel();
    expect(get).toHaveBeenCalledWith(tierPath('hu-HU'), { params: { legalEntity: 'HU' } });
  });
});
