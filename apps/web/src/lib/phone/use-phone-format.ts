import { useEffect, useSyncExternalStore } from 'react';

export type PhoneFormat = (e164: string) => string;

const asStored: PhoneFormat = (e164) => e164;

// Loaded once, for every page that shows a phone number; a failed load is tried again next time.
let loading: Promise<PhoneFormat> | undefined;
let loaded: { format: PhoneFormat; grouped: boolean } | undefined;
const listeners = new Set<() => void>();
const settle = (format: PhoneFormat, grouped: boolean) => {
  loaded = { format, grouped };
  for (const listener of listeners) listener();
};

/** The number formatter (E.164 → the country's grouping): at once when it is here, else once its chunk came. */
export function loadPhoneFormat(): Promise<PhoneFormat> {
  loading ??= import('./phone-format').then(
    (module) => {
      settle(module.formatPhoneNumber, true);
      return module.formatPhoneNumber;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const current = () => loaded;

/**
 * Shows stored E.164 numbers as people read them ("+39 312 345 6789"). `ready` is false until the
 * formatter's chunk has come (start it with the page's data and show the page when both are here, so
 * a number never jumps from one spelling to the other); should the chunk not load, `ready` turns true
 * with numbers shown as stored: still right, only not grouped.
 */
export function usePhoneFormat(): { format: PhoneFormat; ready: boolean } {
  const state = useSyncExternalStore(subscribe, current, current);
  useEffect(() => {
    if (!loaded?.grouped) loadPhoneFormat().catch(() => settle(asStored, false));
  }, []);
  return { format: state?.format ?? asStored, ready: state !== undefined };
}

/** A grouped number in running text: its groups stay on one line (never "+39 312 345 / 6789"). */
export const keptTogether = (grouped: string) => grouped.replace(/ /g, '\u00a0');
