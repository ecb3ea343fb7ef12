import { apiPaths, type TierList } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

export const TIERS_ERROR = 'Loading loyalty tiers failed';

/**
 * GET the tiers with their rewards (content, spec §7), lowest first, for a locale (lang-COUNTRY) and
 * legal entity. Failures are logged and rethrown (spec §8).
 */
export async function getTiers(http: HttpClient, locale: string, legalEntityIso: string): Promise<TierList> {
  try {
    return await http.get<TierList>(apiPaths.loyaltyTiers(locale), {
      params: { legalEntity: legalEntityIso },
    });
  } catch (error) {
    console.error(TIERS_ERROR, error);
    throw error;
  }
}
