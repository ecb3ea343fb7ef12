import { create } from 'zustand';
import type { Language } from '@roadpass/contracts';

/** The three error flags of the app shell (docs/product/addresses-and-routes.md#screens-and-routes, docs/product/states.md#states-and-transitions): always set together. */
export interface ErrorFlags {
  page: boolean;
  overlay: boolean;
  banner: boolean;
}

/** Optional buttons of the error banner. */
export interface ErrorButtons {
  hideCancel?: boolean;
  hideConfirm?: boolean;
}

export type ToastType = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  autoClose: boolean;
}

/** The notify dialog (docs/product/data.md#entities-and-fields): title and message fall back to the spec's defaults when absent. */
export interface NotifyDialog {
  title?: string;
  message?: string;
  onClose?: () => void;
}

export interface AppState {
  token: string | null;
  appReady: boolean;
  contentLoaded: boolean;
  isWebView: boolean;
  trackingOptOut: boolean;
  /**
   * The error reporting SDK runs with the customer's consent (set by the consent manager): what the
   * frame offers on top of it, such as "Report a Bug", shows only then.
   */
  errorReportingAllowed: boolean;
  activeLanguage: Language;
  error: ErrorFlags;
  errorButtons: ErrorButtons;
  /** A reference for support when a server error caused the error page (http's supportReference). */
  errorReference: string | null;
  /**
   * The country the app shows when no customer is signed in (the requested, preferred or browser's);
   * the signed-in customer's own is in the session user (lib/session), not here.
   */
  homeLocation: string;
  toasts: Toast[];
  notify: NotifyDialog | null;
  /** Readable problems of /config.json; when set the app shows the configuration error page. */
  configProblems: string[] | null;
}

export interface AppActions {
  setToken(token: string | null): void;
  setAppReady(ready: boolean): void;
  setContentLoaded(loaded: boolean): void;
  setEnvironment(flags: { isWebView: boolean; trackingOptOut: boolean }): void;
  setErrorReportingAllowed(allowed: boolean): void;
  /** The language whose texts are loaded (lib/i18n holds the texts themselves). */
  setActiveLanguage(language: Language): void;
  /**
   * Sets page, overlay and banner together; setting an error marks the content as loaded. `reference`:
   * the failed request's reference for support, shown on the banner.
   */
  setError(value: boolean, buttons?: ErrorButtons, reference?: string): void;
  /** Flips each of the three error flags. */
  toggleError(): void;
  /** Clears all three flags (navigation to a route without its own error handling). */
  clearErrors(): void;
  /** The banner's close: hides the banner only. */
  closeBanner(): void;
  /** The country the app shows (the customer's, or on a public page the requested or browser's). */
  setHomeLocation(country: string): void;
  addToast(
    toast: Omit<Toast, 'id' | 'autoClose' | 'type'> & Partial<Pick<Toast, 'autoClose' | 'type'>>,
  ): number;
  removeToast(id: number): void;
  showNotify(dialog: NotifyDialog): void;
  closeNotify(): void;
  setConfigProblems(problems: string[] | null): void;
}

export type AppStore = AppState & AppActions;

const noErrors: ErrorFlags = { page: false, overlay: false, banner: false };

export function initialAppState(): AppState {
  return {
    token: null,
    appReady: false,
    contentLoaded: false,
    isWebView: false,
    trackingOptOut: false,
    errorReportingAllowed: false,
    activeLanguage: 'en',
    error: { ...noErrors },
    errorButtons: {},
    errorReference: null,
    homeLocation: 'DE',
    toasts: [],
    notify: null,
    configProblems: null,
  };
}

let nextToastId = 1;

export const useAppStore = create<AppStore>()((set, get) => ({
  ...initialAppState(),
  setToken: (token) => set({ token }),
  setAppReady: (appReady) => set({ appReady }),
  setContentLoaded: (contentLoaded) => set({ contentLoaded }),
  setEnvironment: ({ isWebView, trackingOptOut }) => set({ isWebView, trackingOptOut }),
  setErrorReportingAllowed: (errorReportingAllowed) => set({ errorReportingAllowed }),
  setActiveLanguage: (activeLanguage) => set({ activeLanguage }),
  setError: (value, buttons = {}, reference) =>
    set(() => ({
      error: { page: value, overlay: value, banner: value },
      errorButtons: value ? buttons : {},
      errorReference: value ? (reference ?? null) : null,
      ...(value ? { contentLoaded: true } : {}),
    })),
  toggleError: () =>
    set((state) => {
      const error = { page: !state.error.page, overlay: !state.error.overlay, banner: !state.error.banner };
      const anySet = error.page || error.overlay || error.banner;
      return { error, ...(anySet ? { contentLoaded: true } : {}) };
    }),
  clearErrors: () => set({ error: { ...noErrors }, errorButtons: {}, errorReference: null }),
  closeBanner: () => set((state) => ({ error: { ...state.error, banner: false } })),
  setHomeLocation: (country) => set({ homeLocation: country.toUpperCase() }),
  addToast: ({ message, type = 'info', autoClose = true }) => {
    const id = nextToastId++;
    set((state) => ({ toasts: [...state.toasts, { id, message, type, autoClose }] }));
    return id;
  },
  removeToast: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
  showNotify: (notify) => set({ notify }),
  closeNotify: () => {
    const { notify } = get();
    set({ notify: null });
    notify?.onClose?.();
  },
  setConfigProblems: (configProblems) => set({ configProblems }),
}));

/** The banner's cancel button is hidden while the error page shows or when hideCancel is set. */
export const selectShowBannerCancel = (state: AppState): boolean =>
  !state.error.page && !state.errorButtons.hideCancel;

/** The banner's confirm (Retry) button is hidden when hideConfirm is set. */
export const selectShowBannerConfirm = (state: AppState): boolean => !state.errorButtons.hideConfirm;

/** For tests: back to the initial state, keeping the actions. */
export function resetAppStore(): void {
  useAppStore.setState(initialAppState());
}
