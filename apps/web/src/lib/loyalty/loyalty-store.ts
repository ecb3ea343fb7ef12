import { create } from 'zustand';
import {
  HISTORY_FIRST_PAGE,
  LOYALTY_CORE_CONSENT,
  type CustomerConsent,
  type CustomerConsentUpdate,
  type LoyaltyHistoryEntry,
  type LoyaltyPartnerCode,
  type TierList,
} from '@roadpass/contracts';
import type { LoyaltyRouteName } from '@/config/routes';
import type { HttpClient } from '@/lib/http';
import { generatePartnerCode } from './api/generate-partner-code';
import { getCustomerConsents } from './api/get-customer-consents';
import { getHistoryPage } from './api/get-history-page';
import { getPartnerCode } from './api/get-partner-code';
import { getTiers } from './api/get-tiers';
import { updateCustomerConsent } from './api/update-customer-consent';

export const CONSENTS_ERROR = 'Loading loyalty consents failed';

/** The points history loaded so far (spec §4). */
export interface HistoryState {
  content: LoyaltyHistoryEntry[];
  totalPages: number;
  totalElements: number;
  /** The page the next "load more" asks for; 1 after the first page (index 0) has loaded. */
  nextPage: number;
  loading: boolean;
  /** True once the first page has arrived. */
  loaded: boolean;
}

export interface LoyaltyState {
  /** Tiers per locale and legal entity (`de-DE|DE`), loaded once and reused. */
  tiers: Record<string, TierList>;
  consents: CustomerConsent[];
  /** True when the last consent load failed (the list is then empty, spec §8). */
  consentsFailed: boolean;
  partnerCodes: LoyaltyPartnerCode[];
  history: HistoryState;
  /** The loyalty route shown now and the one before it (signup sends visitors from status back). */
  route: { current: LoyaltyRouteName | null; previous: LoyaltyRouteName | null };
}

export interface TierSource {
  /** lang-COUNTRY, e.g. de-DE. */
  locale: string;
  legalEntityIso: string;
}

export interface LoyaltyActions {
  /** Spec §4: tiers are loaded once and reused; concurrent callers share one request. */
  loadTiers(http: HttpClient, source: TierSource): Promise<TierList>;
  /**
   * Spec §4: loads the customer's consents unless the core loyalty consent is already present (unless
   * forced). Spec §8: a failure leaves an empty list (and consentsFailed) instead of throwing.
   */
  loadLoyaltyConsents(
    http: HttpClient,
    uuid: string,
    options?: { force?: boolean },
  ): Promise<CustomerConsent[]>;
  /**
   * PATCH one consent; the saved consent replaces the stored one. A rejection is the caller's (a form
   * puts a 400's violations on its fields with lib/forms).
   */
  saveConsent(
    http: HttpClient,
    uuid: string,
    slug: string,
    update: CustomerConsentUpdate,
  ): Promise<CustomerConsent>;
  /** Spec §4: stored per slug, replaced if present, else appended. */
  storePartnerCode(code: LoyaltyPartnerCode): void;
  /** GET the code of a partner reward (null when not generated yet) and store it. */
  loadPartnerCode(http: HttpClient, uuid: string, slug: string): Promise<LoyaltyPartnerCode | null>;
  /** POST to generate the code of a partner reward and store it. */
  generatePartnerCode(http: HttpClient, uuid: string, slug: string): Promise<LoyaltyPartnerCode>;
  /** Loads the first page (index 0) afresh. */
  loadHistory(http: HttpClient, uuid: string): Promise<void>;
  /** Appends the next page and moves the page number on; nothing when no more exists or a load runs. */
  loadMoreHistory(http: HttpClient, uuid: string): Promise<void>;
  /** Called by the loyalty router after each navigation. */
  recordRoute(name: LoyaltyRouteName | null): void;
  reset(): void;
}

export type LoyaltyStore = LoyaltyState & LoyaltyActions;

function initialHistory(): HistoryState {
  return {
    content: [],
    totalPages: 0,
    totalElements: 0,
    nextPage: HISTORY_FIRST_PAGE + 1,
    loading: false,
    loaded: false,
  };
}

export function initialLoyaltyState(): LoyaltyState {
  return {
    tiers: {},
    consents: [],
    consentsFailed: false,
    partnerCodes: [],
    history: initialHistory(),
    route: { current: null, previous: null },
  };
}

export const tierKey = ({ locale, legalEntityIso }: TierSource) =>
  `${locale}|${legalEntityIso.toUpperCase()}`;

function withConsent(consents: CustomerConsent[], consent: CustomerConsent): CustomerConsent[] {
  const index = consents.findIndex((c) => c.slug === consent.slug);
  return index === -1 ? [...consents, consent] : consents.map((c, i) => (i === index ? consent : c));
}

export const useLoyaltyStore = create<LoyaltyStore>()((set, get) => {
  // Requests in flight, so that two screens asking at once share one call.
  let pendingTiers = new Map<string, Promise<TierList>>();

  return {
    ...initialLoyaltyState(),

    loadTiers: (http, source) => {
      const key = tierKey(source);
      const known = get().tiers[key];
      if (known) return Promise.resolve(known);
      const pending = pendingTiers.get(key);
      if (pending) return pending;
      const request = getTiers(http, source.locale, source.legalEntityIso)
        .then((tiers) => {
          set((state) => ({ tiers: { ...state.tiers, [key]: tiers } }));
          return tiers;
        })
        .finally(() => pendingTiers.delete(key));
      pendingTiers.set(key, request);
      return request;
    },

    loadLoyaltyConsents: async (http, uuid, options = {}) => {
      const { consents } = get();
      if (!options.force && consents.some((consent) => consent.slug === LOYALTY_CORE_CONSENT))
        return consents;
      try {
        const loaded = await getCustomerConsents(http, uuid);
        set({ consents: loaded, consentsFailed: false });
        return loaded;
      } catch (error) {
        console.error(CONSENTS_ERROR, error);
        set({ consents: [], consentsFailed: true });
        return [];
      }
    },

    saveConsent: async (http, uuid, slug, update) => {
      const saved = await updateCustomerConsent(http, uuid, slug, update);
      set((state) => ({ consents: withConsent(state.consents, saved) }));
      return saved;
    },

    storePartnerCode: (code) =>
      set((state) => {
        const index = state.partnerCodes.findIndex((known) => known.slug === code.slug);
        return {
          partnerCodes:
            index === -1
              ? [...state.partnerCodes, code]
              : state.partnerCodes.map((known, i) => (i === index ? code : known)),
        };
      }),

    loadPartnerCode: async (http, uuid, slug) => {
      const code = await getPartnerCode(http, uuid, slug);
      if (code) get().storePartnerCode(code);
      return code;
    },

    generatePartnerCode: async (http, uuid, slug) => {
      const code = await generatePartnerCode(http, uuid, slug);
      get().storePartnerCode(code);
      return code;
    },

    loadHistory: async (http, uuid) => {
      set((state) => ({ history: { ...state.history, loading: true } }));
      try {
        const page = await getHistoryPage(http, uuid, HISTORY_FIRST_PAGE);
        set({
          history: {
            content: page.content,
            totalPages: page.totalPages,
            totalElements: page.totalElements,
            nextPage: HISTORY_FIRST_PAGE + 1,
            loading: false,
            loaded: true,
          },
        });
      } catch (error) {
        set((state) => ({ history: { ...state.history, loading: false } }));
        throw error;
      }
    },

    loadMoreHistory: async (http, uuid) => {
      const { history } = get();
      if (history.loading || !selectHasMoreHistory(get())) return;
      set({ history: { ...history, loading: true } });
      try {
        const page = await getHistoryPage(http, uuid, history.nextPage);
        set((state) => ({
          history: {
            content: [...state.history.content, ...page.content],
            totalPages: page.totalPages,
            totalElements: page.totalElements,
            nextPage: state.history.nextPage + 1,
            loading: false,
            loaded: true,
          },
        }));
      } catch (error) {
        set((state) => ({ history: { ...state.history, loading: false } }));
        throw error;
      }
    },

    recordRoute: (name) =>
      set((state) =>
        state.route.current === name ? state : { route: { current: name, previous: state.route.current } },
      ),

    reset: () => {
      pendingTiers = new Map();
      set(initialLoyaltyState());
    },
  };
});

/** Spec §4: more history exists while totalPages exceeds the next page number. */
export const selectHasMoreHistory = (state: LoyaltyState): boolean =>
  state.history.totalPages > state.history.nextPage;

/** Whether the customer has granted the core loyalty consent (a member of the programme). */
export const selectIsMember = (state: LoyaltyState): boolean =>
  state.consents.some((consent) => consent.slug === LOYALTY_CORE_CONSENT && consent.granted);

export const selectPartnerCode =
  (slug: string) =>
  (state: LoyaltyState): LoyaltyPartnerCode | undefined =>
    state.partnerCodes.find((code) => code.slug === slug);

/** For tests: back to the initial state. */
export function resetLoyaltyStore(): void {
  useLoyaltyStore.getState().reset();
}
