import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { i18n } from '@/lib/i18n/i18n';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { LoyaltyHistoryPage } from '@roadpass/contracts';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { resetLoyaltyStore } from '@/lib/loyalty/loyalty-store';
import { historyEntry, historyPage } from '@/lib/loyalty/testing/loyalty-fixtures';
import { renderLoyalty } from '@/lib/loyalty/testing/render-loyalty';
import { applyRealTranslations } from '@/lib/loyalty/testing/translations';
import { resetAppStore } from '@/lib/state/app-store';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { demoLoginStatus } from '@/testing/fixtures';
import { LoyaltyHistory } from './loyalty-history';
import { signInForTests } from '@/testing/session';

const historyPath = apiPaths.loyaltyHistory(demoLoginStatus.user.uuid);
type GetConfig = { params?: { page_index?: number; page_size?: number } };

function renderHistory(
  get: (url: string, config?: GetConfig) => Promise<unknown>,
  queryClient?: QueryClient,
) {
  const fake = vi.fn(get);
  const http = createFakeHttpClient({ get: fake as never });
  return {
    ...renderLoyalty(<LoyaltyHistory />, { path: '/history', http, ...(queryClient ? { queryClient } : {}) }),
    get: fake,
  };
}

/** The entries the one cache holds for the customer's history. */
const cachedEntries = (queryClient: QueryClient) =>
  queryClient
    .getQueryData<InfiniteData<LoyaltyHistoryPage>>(loyaltyKeys.history(demoLoginStatus.user.uuid))!
    .pages.flatMap((page) => page.content);

/** A server holding `total` entries. */
const serverWith = (total: number) => async (url: string, config?: GetConfig) => {
  expect(url).toBe(historyPath);
  return historyPage(config?.params?.page_index ?? 0, total, config?.params?.page_size);
};

const summary = () => screen.getByRole('status');
const rows = () =>
  within(screen.getByRole('list', { name: 'Points history entries' })).getAllByRole('listitem');

describe('loyalty history', () => {
  beforeEach(async () => {
    await applyRealTranslations('en');
    signInForTests(demoLoginStatus.user);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // jsdom has no layout: every history row is 76 px high in a 768 px window.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('virtual-list__row') ? 76 : 0;
    });
  });
  afterEach(async () => {
    cleanup();
    resetAppStore();
    resetLoyaltyStore();
    await i18n.changeLanguage('en');
  });

  it('loads page 0 with 100 entries and offers more while totalPages exceeds the next page', async () => {
    const { get, queryClient } = renderHistory(serverWith(250));

    await vi.waitFor(() => expect(summary()).toHaveTextContent('100 of 250 entries loaded'));
    expect(get).toHaveBeenCalledWith(historyPath, { params: { page_size: 100, page_index: 0 } });
    expect(screen.getByRole('heading', { level: 1, name: 'Points history' })).toBeInTheDocument();
    expect(document.title).toBe('Points history · Roadpass');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(summary()).toHaveTextContent('200 of 250 entries loaded'));
    expect(rows()[0]).toHaveAttribute('aria-setsize', '200');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(summary()).toHaveTextContent('250 of 250 entries loaded'));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(get.mock.calls.map(([, config]) => config?.params?.page_index)).toEqual([0, 1, 2]);
    expect(
      cachedEntries(queryClient)
        .map((entry) => entry.id)
        .slice(98, 102),
    ).toEqual(['entry-98', 'entry-99', 'entry-100', 'entry-101']);
  });

  it('marks the button busy while the next page loads', async () => {
    let release: () => void = () => {};
    const { get } = renderHistory(async (url, config) => {
      if ((config?.params?.page_index ?? 0) > 0) await new Promise<void>((resolve) => (release = resolve));
      return serverWith(250)(url, config);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));

    const busy = screen.getByRole('button', { name: 'Loading more…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    // Issue 10, finding 14: a disabled button dropped the keyboard focus; this one keeps it.
    expect(busy).toHaveFocus();
    await userEvent.click(busy);

    release();
    const ready = await screen.findByRole('button', { name: 'Load more' });
    expect(ready).not.toHaveAttribute('aria-disabled');
    expect(ready).toHaveFocus();
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('shows each entry: type, date, signed points in text and the expiry of the points', async () => {
    renderHistory(async () => ({
      content: [
        historyEntry(1, { type: 'rental-completed', points: 120, occurredAt: '2026-03-05T10:00:00.000Z' }),
        historyEntry(2, { type: 'expiry', points: -300, expirationDate: null }),
      ],
      totalPages: 1,
      totalElements: 2,
      pageIndex: 0,
      pageSize: 100,
    }));

    const [rental, expiry] = await screen.findAllByRole('listitem');
    expect(rental).toHaveTextContent('Rental');
    // English with the customer's country (en-DE): the day before the month.
    expect(rental).toHaveTextContent('5 Mar 2026');
    expect(rental).toHaveTextContent('+120');
    expect(rental).toHaveTextContent('120 points added');
    expect(rental).toHaveTextContent('Points expire on 1 Feb 2027');
    expect(expiry).toHaveTextContent('Points expired');
    expect(expiry).toHaveTextContent('-300');
    expect(expiry).toHaveTextContent('300 points deducted');
    expect(expiry).not.toHaveTextContent('Points expire on');
  });

  it('says so when there are no entries yet', async () => {
    renderHistory(serverWith(0));

    expect(await screen.findByText('No points yet. Your rentals will show up here.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('offers a retry when the first page cannot be loaded', async () => {
    let fail = true;
    renderHistory(async (url, config) => {
      if (fail) throw new HttpError({ status: 503, config: { url } });
      return serverWith(40)(url, config);
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('This could not be loaded');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await vi.waitFor(() => expect(summary()).toHaveTextContent('40 of 40 entries loaded'));
  });

  it('keeps the DOM bounded with 10 000 entries loaded (100 pages)', async () => {
    const pages = Array.from({ length: 100 }, (_, index) => historyPage(index, 10_000));
    const queryClient = new QueryClient();
    queryClient.setQueryData(loyaltyKeys.history(demoLoginStatus.user.uuid), {
      pages,
      pageParams: pages.map((_, index) => index),
    });
    const { get } = renderHistory(serverWith(10_000), queryClient);

    expect(summary()).toHaveTextContent('10,000 of 10,000 entries loaded');
    // 768 px / 76 px ≈ 11 rows on screen, plus the overscan.
    expect(rows().length).toBeLessThanOrEqual(30);
    expect(rows()[0]).toHaveAttribute('aria-setsize', '10000');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    // What was loaded is kept: coming back to the page does not load it again.
    expect(get).not.toHaveBeenCalled();
  });
});
