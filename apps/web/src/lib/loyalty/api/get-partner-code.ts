import { queryOptions } from '@tanstack/react-query';
import { apiPaths, loyaltyErrorCodes, type LoyaltyPartnerCode } from '@roadpass/contracts';
import { hasErrorCode, type HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const PARTNER_CODE_ERROR = 'Loading partner code failed';

/**
 * GET the customer's code for a partner reward; null when none has been generated yet (404
 * partner_code_not_found). Other failures are logged and rethrown (docs/product/errors.md#error-catalogue).
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

/**
 * docs/product/states.md#states-and-transitions: partner codes are kept per slug (one cache entry per reward): a new code takes its slug's
 * place and leaves the others alone.
 */
export function partnerCodeQuery(http: HttpClient, uuid: string, slug: string) {
  return queryOptions({
    queryKey: loyaltyKeys.partnerCode(uuid, slug),
    queryFn: () => getPartnerCode(http, uuid, slug),
    staleTime: Infinity,
    retry: false,
  });
}
