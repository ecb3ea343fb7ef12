import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOYALTY_CORE_CONSENT, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { HttpError } from '@/lib/http';
import { createFakeHttpClient } from '@/testing/fake-http-client';
import { resetLoyaltyStore, selectHasMoreHistory, selectIsMember, useLoyaltyStore } from './loyalty-store';
import { coreConsent, historyPage, tiers } from './testing/loyalty-fixtures';

const uuid = '0b9f7f5e-3c1e-4a57-9d0f-2d3f1c6a8b11';
const store = () => useLoyaltyStore.getState();
const httpError = (status: number, violations?: { field: string; rule: string; message: string }[]) =>
  new HttpError({
    status,
    config: { url: '/x' },
    body: {
      status,
      code: { 400: 'validation_failed', 404: 'partner_code_not_found' }[status] ?? 'internal_error',
      message: 'failed',
      violations,
    },
  });
const code = (slug: string, value: string): LoyaltyPartnerCode => ({
  slug,
  code: value,
  createdAt: '2026-03-01T10:00:00.000Z',
});

describe('loyalty store', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => resetLoyaltyStore());

  describe('tiers', () => {
    it('are loaded once per locale and reused', async () => {
      const get = vi.fn(async () => tiers as never);
      const http = createFakeHttpClient({ get });

      const first = await store().loadTiers(http, { locale: 'de-DE', legalEntityIso: 'DE' });
      const second = await store().loadTiers(http, { locale: 'de-DE', legalEntityIso: 'DE' });

      expect(first).toEqual(tiers);
      expect(second).toBe(first);
      expect(get).toHaveBeenCalledOnce();
      expect(get).toHaveBeenCalledWith('/api/core-web/content/loyalty/tier/de-DE', {
        params: { legalEntity: 'DE' },
      });
    });

    it('share one request between callers asking at the same time', async () => {
      const get = vi.fn(async () => tiers as never);
      const http = createFakeHttpClient({ get });

      await Promise.all([
        store().loadTiers(http, { locale: 'en-DE', legalEntityIso: 'DE' }),
        store().loadTiers(http, { locale: 'en-DE', legalEntityIso: 'DE' }),
      ]);

      expect(get).toHaveBeenCalledOnce();
    });

    it('are loaded again for another locale', async () => {
      const get = vi.fn(async () => tiers as never);
      const http = createFakeHttpClient({ get });

      await store().loadTiers(http, { locale: 'de-DE', legalEntityIso: 'DE' });
      await store().loadTiers(http, { locale: 'en-DE', legalEntityIso: 'DE' });

      expect(get).toHaveBeenCalledTimes(2);
    });

    it('log and rethrow a failure, and load again on the next call', async () => {
      const get = vi.fn().mockRejectedValueOnce(httpError(503)).mockResolvedValueOnce(tiers);
      const http = createFakeHttpClient({ get });

      await expect(store().loadTiers(http, { locale: 'de-DE', legalEntityIso: 'DE' })).rejects.toThrow(
        HttpError,
      );
      expect(console.error).toHaveBeenCalledWith('Loading loyalty tiers failed', expect.any(HttpError));
      await expect(store().loadTiers(http, { locale: 'de-DE', legalEntityIso: 'DE' })).resolves.toEqual(
        tiers,
      );
    });
  });

  describe('loyalty consents', () => {
    it('are loaded when the core consent is not present yet', async () => {
      const get = vi.fn(async () => ({ data: [coreConsent(true)] }) as never);
      const http = createFakeHttpClient({ get });

      const consents = await store().loadLoyaltyConsents(http, uuid);

      expect(consents).toEqual([coreConsent(true)]);
      expect(get).toHaveBeenCalledWith(`/api/customer/consents/v1/customers/${uuid}/consents`);
      expect(selectIsMember(store())).toBe(true);
    });

    it('are not loaded again while the core consent is present', async () => {
      const get = vi.fn(async () => ({ data: [coreConsent(false)] }) as never);
      const http = createFakeHttpClient({ get });

      await store().loadLoyaltyConsents(http, uuid);
      await store().loadLoyaltyConsents(http, uuid);

      expect(get).toHaveBeenCalledOnce();
      expect(selectIsMember(store())).toBe(false);
    });

    it('are loaded again when forced', async () => {
      const get = vi
        .fn()
        .mockResolvedValueOnce({ data: [coreConsent(false)] })
        .mockResolvedValueOnce({ data: [coreConsent(true)] });
      const http = createFakeHttpClient({ get });

      await store().loadLoyaltyConsents(http, uuid);
      await store().loadLoyaltyConsents(http, uuid, { force: true });

      expect(get).toHaveBeenCalledTimes(2);
      expect(selectIsMember(store())).toBe(true);
    });

    it('are loaded again while only other consents are known', async () => {
      const get = vi.fn(async () => ({ data: [{ slug: 'newsletter-xyz', granted: true }] }) as never);
      const http = createFakeHttpClient({ get });

      await store().loadLoyaltyConsents(http, uuid);
      await store().loadLoyaltyConsents(http, uuid);

      expect(get).toHaveBeenCalledTimes(2);
    });

    it('become an empty list when the call fails', async () => {
      const http = createFakeHttpClient({ get: vi.fn().mockRejectedValue(httpError(500)) });

      await expect(store().loadLoyaltyConsents(http, uuid)).resolves.toEqual([]);
      expect(store().consents).toEqual([]);
      expect(store().consentsFailed).toBe(true);
    });

    it('replace the saved consent after a PATCH', async () => {
      const get = vi.fn(async () => ({ data: [coreConsent(false)] }) as never);
      const patch = vi.fn(async () => coreConsent(true) as never);
      const http = createFakeHttpClient({ get, patch });
      await store().loadLoyaltyConsents(http, uuid);

      await store().saveConsent(http, uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 10, granted: true });

      expect(patch).toHaveBeenCalledWith(
        `/api/customer/consents/v1/customers/${uuid}/consents/${LOYALTY_CORE_CONSENT}`,
        { legalEntityId: 10, granted: true },
      );
      expect(store().consents).toEqual([coreConsent(true)]);
    });

    it('rethrow a rejection and keep the stored consents', async () => {
      const violation = { field: 'granted', rule: 'type', message: 'must be boolean' };
      const http = createFakeHttpClient({
        get: vi.fn(async () => ({ data: [coreConsent(false)] }) as never),
        patch: vi.fn().mockRejectedValue(httpError(400, [violation])),
      });
      await store().loadLoyaltyConsents(http, uuid);

      await expect(
        store().saveConsent(http, uuid, LOYALTY_CORE_CONSENT, { legalEntityId: 10, granted: true }),
      ).rejects.toThrow(HttpError);
      expect(store().consents).toEqual([coreConsent(false)]);
    });
  });

  describe('partner codes', () => {
    it('are appended for a new slug and replaced for a known one', () => {
      store().storePartnerCode(code('city-bike', 'AAA'));
      store().storePartnerCode(code('cinema', 'BBB'));
      store().storePartnerCode(code('city-bike', 'CCC'));

      expect(store().partnerCodes).toEqual([code('city-bike', 'CCC'), code('cinema', 'BBB')]);
    });

    it('are null when none was generated yet (404), and stored once generated', async () => {
      const get = vi.fn().mockRejectedValue(httpError(404));
      const post = vi.fn(async () => code('city-bike', 'RP-7Q2K') as never);
      const http = createFakeHttpClient({ get, post });

      await expect(store().loadPartnerCode(http, uuid, 'city-bike')).resolves.toBeNull();
      await store().generatePartnerCode(http, uuid, 'city-bike');

      expect(post).toHaveBeenCalledWith(
        `/api/customer/loyalty-service/customer/${uuid}/partner-code/city-bike`,
      );
      expect(store().partnerCodes).toEqual([code('city-bike', 'RP-7Q2K')]);
      expect(console.error).not.toHaveBeenCalled();
    });

    it('log and rethrow other failures', async () => {
      const http = createFakeHttpClient({
        get: vi.fn().mockRejectedValue(httpError(500)),
        post: vi.fn().mockRejectedValue(httpError(503)),
      });

      await expect(store().loadPartnerCode(http, uuid, 'city-bike')).rejects.toThrow(HttpError);
      await expect(store().generatePartnerCode(http, uuid, 'city-bike')).rejects.toThrow(HttpError);

      expect(console.error).toHaveBeenCalledWith('Loading partner code failed', expect.any(HttpError));
      expect(console.error).toHaveBeenCalledWith('Generating partner code failed', expect.any(HttpError));
      expect(store().partnerCodes).toEqual([]);
    });
  });

  // Spec §4 "validation errors are collected per attribute without duplicates": lib/forms
  // (collectMessages, setServerErrors) does it for every form; tested in server-errors.test.ts.

  describe('history', () => {
    it('loads the first page (index 0, page size 100) and sets the next page number to 1', async () => {
      const get = vi.fn(async () => historyPage(0, 250) as never);
      const http = createFakeHttpClient({ get });

      await store().loadHistory(http, uuid);

      expect(get).toHaveBeenCalledWith(`/api/customer/loyalty-service/customer/${uuid}/history`, {
        params: { page_size: 100, page_index: 0 },
      });
      expect(store().history).toMatchObject({ nextPage: 1, totalPages: 3, loading: false, loaded: true });
      expect(store().history.content).toHaveLength(100);
    });

    it('has more while totalPages exceeds the next page number; loading more appends and moves on', async () => {
      const get = vi.fn(
        async (_url: string, config?: { params?: { page_index?: number } }) =>
          historyPage(config?.params?.page_index ?? 0, 250) as never,
      );
      const http = createFakeHttpClient({ get });

      await store().loadHistory(http, uuid);
      expect(selectHasMoreHistory(store())).toBe(true);

      await store().loadMoreHistory(http, uuid);
      expect(store().history).toMatchObject({ nextPage: 2, totalPages: 3 });
      expect(store().history.content).toHaveLength(200);
      expect(selectHasMoreHistory(store())).toBe(true);

      await store().loadMoreHistory(http, uuid);
      expect(store().history).toMatchObject({ nextPage: 3, totalPages: 3 });
      expect(store().history.content).toHaveLength(250);
      expect(
        store()
          .history.content.map((entry) => entry.id)
          .slice(99, 101),
      ).toEqual(['entry-99', 'entry-100']);
      expect(selectHasMoreHistory(store())).toBe(false);

      await store().loadMoreHistory(http, uuid);
      expect(get.mock.calls.map(([, config]) => config?.params?.page_index)).toEqual([0, 1, 2]);
    });

    it('has no more when everything fits on the first page', async () => {
      const http = createFakeHttpClient({ get: vi.fn(async () => historyPage(0, 40) as never) });

      await store().loadHistory(http, uuid);

      expect(selectHasMoreHistory(store())).toBe(false);
    });

    it('sets the loading flag during a load', async () => {
      let resolve: (value: unknown) => void = () => {};
      const http = createFakeHttpClient({ get: vi.fn(() => new Promise((r) => (resolve = r)) as never) });

      const loading = store().loadHistory(http, uuid);
      expect(store().history.loading).toBe(true);

      resolve(historyPage(0, 10));
      await loading;
      expect(store().history.loading).toBe(false);
    });

    it('does not load the same page twice while a load runs', async () => {
      const pending: ((value: unknown) => void)[] = [];
      const get = vi
        .fn()
        .mockResolvedValueOnce(historyPage(0, 250))
        .mockImplementation(() => new Promise((r) => pending.push(r)));
      const http = createFakeHttpClient({ get });
      await store().loadHistory(http, uuid);

      const first = store().loadMoreHistory(http, uuid);
      await store().loadMoreHistory(http, uuid);
      pending[0]!(historyPage(1, 250));
      await first;

      expect(get).toHaveBeenCalledTimes(2);
      expect(store().history.nextPage).toBe(2);
    });

    it('logs and rethrows a failure, clears the loading flag and keeps what was loaded', async () => {
      const get = vi.fn().mockResolvedValueOnce(historyPage(0, 250)).mockRejectedValueOnce(httpError(504));
      const http = createFakeHttpClient({ get });
      await store().loadHistory(http, uuid);

      await expect(store().loadMoreHistory(http, uuid)).rejects.toThrow(HttpError);

      expect(console.error).toHaveBeenCalledWith('Loading loyalty history failed', expect.any(HttpError));
      expect(store().history).toMatchObject({ nextPage: 1, loading: false });
      expect(store().history.content).toHaveLength(100);
    });
  });
});
