import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOYALTY_CORE_CONSENT, type CustomerConsent, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { coreConsent, historyPage, tiers } from '../testing/loyalty-fixtures';
import { generatePartnerCodeMutation } from './generate-partner-code';
import { ensureLoyaltyConsents, isMember } from './get-customer-consents';
import { historyQuery, nextHistoryPage } from './get-history-page';
import { partnerCodeQuery } from './get-partner-code';
import { tiersQuery } from './get-tiers';
import { loyaltyKeys } from './query-keys';
import { saveConsent } from './update-customer-consent';

// docs/product/states.md#states-and-transitions's rules for the loyalty data, now kept by TanStack Query (the one cache, decision
// 0023), tested with a real QueryClient and a fake HTTP client.

const uuid = '0b9f7f5e-3c1e-4a57-9d0f-2d3f1c6a8b11';
const failure = (status: number, code = 'internal_error') =>
  new HttpError({ status, config: { url: '/x' }, body: { status, code, message: 'failed' } });
const code = (slug: string, value: string): LoyaltyPartnerCode => ({
  slug,
  code: value,
  createdAt: '2026-03-01T10:00:00.000Z',
});
const otherConsent: CustomerConsent = { slug: 'loyalty-news-x1', granted: true };

let queryClient: QueryClient;
beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

describe('tiers', () => {
  it('are loaded once per locale and reused, one request for callers asking at once', async () => {
    const get = vi.fn(async () => tiers as never);
    const http = createFakeHttpClient({ get });

    const [first, second] = await Promise.all([
      queryClient.fetchQuery(tiersQuery(http, 'de-DE', 'DE')),
      queryClient.fetchQuery(tiersQuery(http, 'de-DE', 'DE')),
    ]);
    const later = await queryClient.fetchQuery(tiersQuery(http, 'de-DE', 'de'));

    expect(first).toEqual(tiers);
    expect(second).toBe(first);
    expect(later).toBe(first);
    expect(get).toHaveBeenCalledOnce();
    expect(get).toHaveBeenCalledWith('/api/core-web/content/loyalty/tier/de-DE', {
      params: { legalEntity: 'DE' },
    });
    await queryClient.fetchQuery(tiersQuery(http, 'en-DE', 'DE'));
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('log and rethrow a failure, and load again on the next call', async () => {
    const get = vi.fn().mockRejectedValueOnce(failure(503)).mockResolvedValue(tiers);
    const http = createFakeHttpClient({ get });

    await expect(queryClient.fetchQuery(tiersQuery(http, 'de-DE', 'DE'))).rejects.toThrow(HttpError);
    expect(console.error).toHaveBeenCalledWith('Loading loyalty tiers failed', expect.any(HttpError));
    await expect(queryClient.fetchQuery(tiersQuery(http, 'de-DE', 'DE'))).resolves.toEqual(tiers);
  });
});

describe('loyalty consents', () => {
  it('are loaded when the core consent is not cached yet, and not again while it is', async () => {
    const get = vi.fn(async () => ({ data: [coreConsent(true)] }) as never);
    const http = createFakeHttpClient({ get });

    await expect(ensureLoyaltyConsents(queryClient, http, uuid)).resolves.toEqual({
      consents: [coreConsent(true)],
      failed: false,
    });
    await ensureLoyaltyConsents(queryClient, http, uuid);

    expect(get).toHaveBeenCalledOnce();
    expect(get).toHaveBeenCalledWith(`/api/customer/consents/v1/customers/${uuid}/consents`);
  });

  it('are loaded again when forced, or while only other consents are known', async () => {
    const get = vi.fn(async () => ({ data: [otherConsent] }) as never);
    const http = createFakeHttpClient({ get });

    await ensureLoyaltyConsents(queryClient, http, uuid);
    await ensureLoyaltyConsents(queryClient, http, uuid);
    expect(get).toHaveBeenCalledTimes(2);

    get.mockResolvedValue({ data: [coreConsent(false)] } as never);
    await ensureLoyaltyConsents(queryClient, http, uuid);
    await ensureLoyaltyConsents(queryClient, http, uuid, { force: true });
    expect(get).toHaveBeenCalledTimes(4);
  });

  it('become an empty list when the call fails (docs/product/errors.md#error-catalogue)', async () => {
    const failed = failure(503);
    const http = createFakeHttpClient({ get: vi.fn().mockRejectedValue(failed) });

    // The failed call goes along, for its reference for support.
    await expect(ensureLoyaltyConsents(queryClient, http, uuid)).resolves.toEqual({
      consents: [],
      failed: true,
      error: failed,
    });
    expect(queryClient.getQueryData(loyaltyKeys.consents(uuid))).toEqual([]);
  });

  it('tell a member by the granted core consent', () => {
    expect(isMember([coreConsent(true)])).toBe(true);
    expect(isMember([coreConsent(false), otherConsent])).toBe(false);
  });

  it('take a saved consent in place of the cached one of its slug, or add it', async () => {
    const get = vi.fn(async () => ({ data: [coreConsent(false)] }) as never);
    const patch = vi.fn(
      async (_url: string, body?: unknown) => ({ slug: LOYALTY_CORE_CONSENT, ...(body as object) }) as never,
    );
    const http = createFakeHttpClient({ get, patch });
    await ensureLoyaltyConsents(queryClient, http, uuid);

    await saveConsent(queryClient, http, uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 10, granted: true });
    patch.mockResolvedValueOnce(otherConsent as never);
    await saveConsent(queryClient, http, uuid, otherConsent.slug, { legalEntityId: 10, granted: true });

    expect(patch).toHaveBeenCalledWith(
      `/api/customer/consents/v1/customers/${uuid}/consents/${LOYALTY_CORE_CONSENT}`,
      { legalEntityId: 10, granted: true },
    );
    expect(queryClient.getQueryData(loyaltyKeys.consents(uuid))).toEqual([
      { slug: LOYALTY_CORE_CONSENT, legalEntityId: 10, granted: true },
      otherConsent,
    ]);
    // The core consent is cached now: the entry route decides without loading them again.
    await ensureLoyaltyConsents(queryClient, http, uuid);
    expect(get).toHaveBeenCalledOnce();
  });

  it('keep the cached consents when a save is rejected', async () => {
    const http = createFakeHttpClient({
      get: vi.fn(async () => ({ data: [coreConsent(false)] }) as never),
      patch: vi.fn().mockRejectedValue(failure(400, 'validation_failed')),
    });
    await ensureLoyaltyConsents(queryClient, http, uuid);

    await expect(
      saveConsent(queryClient, http, uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 10, granted: true }),
    ).rejects.toThrow(HttpError);
    expect(queryClient.getQueryData(loyaltyKeys.consents(uuid))).toEqual([coreConsent(false)]);
  });
});

describe('partner codes', () => {
  it('are null when none was generated yet (404 partner_code_not_found)', async () => {
    const http = createFakeHttpClient({
      get: vi.fn().mockRejectedValue(failure(404, 'partner_code_not_found')),
    });
    await expect(queryClient.fetchQuery(partnerCodeQuery(http, uuid, 'city-bike'))).resolves.toBeNull();
    expect(console.error).not.toHaveBeenCalled();
  });

  it('are kept per slug: a generated code takes its slug’s place and leaves the others alone', async () => {
    const post = vi
      .fn()
      .mockResolvedValueOnce(code('city-bike', 'AAA'))
      .mockResolvedValueOnce(code('cinema', 'BBB'))
      .mockResolvedValueOnce(code('city-bike', 'CCC'));
    const http = createFakeHttpClient({ post });
    const generate = async (slug: string) => {
      const mutation = generatePartnerCodeMutation(http, queryClient, uuid, slug);
      mutation.onSuccess(await mutation.mutationFn());
    };

    await generate('city-bike');
    await generate('cinema');
    await generate('city-bike');

    expect(post).toHaveBeenCalledWith(
      `/api/customer/loyalty-service/customer/${uuid}/partner-code/city-bike`,
    );
    expect(queryClient.getQueryData(loyaltyKeys.partnerCode(uuid, 'city-bike'))).toEqual(
      code('city-bike', 'CCC'),
    );
    expect(queryClient.getQueryData(loyaltyKeys.partnerCode(uuid, 'cinema'))).toEqual(code('cinema', 'BBB'));
  });

  it('log and rethrow other failures', async () => {
    const http = createFakeHttpClient({
      get: vi.fn().mockRejectedValue(failure(500)),
      post: vi.fn().mockRejectedValue(failure(503)),
    });
    await expect(queryClient.fetchQuery(partnerCodeQuery(http, uuid, 'city-bike'))).rejects.toThrow(
      HttpError,
    );
    await expect(
      generatePartnerCodeMutation(http, queryClient, uuid, 'city-bike').mutationFn(),
    ).rejects.toThrow(HttpError);
    expect(console.error).toHaveBeenCalledWith('Loading partner code failed', expect.any(HttpError));
    expect(console.error).toHaveBeenCalledWith('Generating partner code failed', expect.any(HttpError));
  });
});

describe('history paging', () => {
  const pagedHttp = (total: number) => {
    const get = vi.fn(
      async (_url: string, config?: { params?: { page_index?: number } }) =>
        historyPage(config?.params?.page_index ?? 0, total) as never,
    );
    return { get, http: createFakeHttpClient({ get }) };
  };

  it('has more while totalPages exceeds the next page number, which starts at 1', () => {
    expect(nextHistoryPage(historyPage(0, 250), 1)).toBe(1);
    expect(nextHistoryPage(historyPage(1, 250), 2)).toBe(2);
    expect(nextHistoryPage(historyPage(2, 250), 3)).toBeUndefined();
    expect(nextHistoryPage(historyPage(0, 40), 1)).toBeUndefined();
  });

  it('loads page 0 first (page size 100), then appends the next pages in order, with a loading flag', async () => {
    const { get, http } = pagedHttp(250);
    const observer = new InfiniteQueryObserver(queryClient, historyQuery(http, uuid));
    const unsubscribe = observer.subscribe(() => {});

    await vi.waitFor(() => expect(observer.getCurrentResult().data?.pages).toHaveLength(1));
    expect(get).toHaveBeenCalledWith(`/api/customer/loyalty-service/customer/${uuid}/history`, {
      params: { page_size: 100, page_index: 0 },
    });
    expect(observer.getCurrentResult().hasNextPage).toBe(true);

    const more = observer.fetchNextPage();
    expect(observer.getCurrentResult().isFetchingNextPage).toBe(true);
    await more;
    expect(observer.getCurrentResult().isFetchingNextPage).toBe(false);
    await observer.fetchNextPage();

    const result = observer.getCurrentResult();
    const entries = result.data!.pages.flatMap((page) => page.content);
    expect(entries).toHaveLength(250);
    expect(entries.map((entry) => entry.id).slice(99, 101)).toEqual(['entry-99', 'entry-100']);
    expect(result.hasNextPage).toBe(false);
    expect(get.mock.calls.map(([, config]) => config?.params?.page_index)).toEqual([0, 1, 2]);
    unsubscribe();
  });

  it('logs and rethrows a failed page and keeps what was loaded', async () => {
    const { get, http } = pagedHttp(250);
    const observer = new InfiniteQueryObserver(queryClient, historyQuery(http, uuid));
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.pages).toHaveLength(1));

    get.mockRejectedValueOnce(failure(503));
    await observer.fetchNextPage();

    const result = observer.getCurrentResult();
    expect(result.isFetchNextPageError).toBe(true);
    expect(result.data!.pages).toHaveLength(1);
    expect(console.error).toHaveBeenCalledWith('Loading loyalty history failed', expect.any(HttpError));
    unsubscribe();
  });
});
