import { apiPaths, loyaltyErrorCodes, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { hasErrorCode, type HttpClient } from '@/lib/http';

export const PARTNER_CODE_ERROR = 'Loading partner code failed';

/**
 * GET the customer's code for a partner reward; null when none has been generated yet (404
 * partner_code_not_found). Other
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
    if (hasErrorCode(error, loyaltyErrorCodes.partnerCodeNotFound)) return null;
    console.error(PARTNER_CODE_ERROR, error);
    throw error;
  }
}
