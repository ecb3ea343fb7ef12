import { apiPaths, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { isHttpError, type HttpClient } from '@/lib/http';

export const PARTNER_CODE_ERROR = 'Loading partner code failed';

/**
 * GET the customer's code for a partner reward; null when none has been generated yet (404). Other
 * failures are logged and rethrown (spec §8).
 */
export async function getPartnerCode(
  http: HttpClient,
  uuid: string,
  slug: string,
): Promise<LoyaltyPartnerCode | null> {
  try {
    return await http.get<LoyaltyPartnerCode>(apiPaths.loyaltyPartnerCode(uuid, slug));
  } catch (error) {
    if (isHttpError(error) && error.status === 404) return null;
    console.error(PARTNER_CODE_ERROR, error);
    throw error;
  }
}
