import { DEFAULT_COUNTRY, normaliseLocale } from '@roadpass/contracts';
import { useAppStore } from '@/lib/state/app-store';
import { useSessionUser } from '@/lib/session/session-user';

export interface LoyaltyLocale {
  /** For dates and numbers: active language and the customer's country, e.g. de-DE or en-NL. */
  formatLocale: string;
  /** For content calls (tiers, FAQ): the same, normalised to a supported lang-COUNTRY. */
  contentLocale: string;
  legalEntityIso: string;
}

export function loyaltyLocale(activeLanguage: string, legalEntityIso: string | undefined): LoyaltyLocale {
  const country = (legalEntityIso ?? DEFAULT_COUNTRY).toUpperCase();
  const formatLocale = `${activeLanguage}-${country}`;
  return { formatLocale, contentLocale: normaliseLocale(formatLocale), legalEntityIso: country };
}

/**
 * The locale of the loyalty screens: the signed-in customer's country, or on the public demo the
 * country start-up chose (from ?locale=, the preference or the browser; DE by default).
 */
export function useLoyaltyLocale(): LoyaltyLocale {
  const activeLanguage = useAppStore((state) => state.activeLanguage);
  const homeLocation = useAppStore((state) => state.homeLocation);
  const legalEntityIso = useSessionUser()?.legalEntityIso ?? homeLocation;
  return loyaltyLocale(activeLanguage, legalEntityIso);
}
