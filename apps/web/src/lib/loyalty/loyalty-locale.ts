import { DEFAULT_COUNTRY, normaliseLocale } from '@roadpass/contracts';
import { useAppStore } from '@/lib/state/app-store';

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

/** The locale of the signed-in customer's loyalty screens (DE when nobody is signed in). */
export function useLoyaltyLocale(): LoyaltyLocale {
  const activeLanguage = useAppStore((state) => state.activeLanguage);
  const legalEntityIso = useAppStore((state) => state.user?.legalEntityIso);
  return loyaltyLocale(activeLanguage, legalEntityIso);
}
