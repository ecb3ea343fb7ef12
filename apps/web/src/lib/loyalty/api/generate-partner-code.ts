import { apiPaths, type LoyaltyPartnerCode } from '@roadpass/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const PARTNER_CODE_GENERATE_ERROR = 'Generating partner code failed';

/**
 * POST (empty body) generates the customer's code for a partner reward; the server hands out one code
 * per customer and reward, so a second call returns the same one. Failures are logged and rethrown.
 */
export async function generatePartnerCode(
  http: HttpClient,
  uuid: string,
  slug: string,
): Promise<LoyaltyPartnerCode> {
  try {
    return await http.post<LoyaltyPartnerCode>(apiPaths.loyaltyPartnerCode(uuid, slug));
  } catch (error) {
    console.error(PARTNER_CODE_GENERATE_ERROR, error);
    throw error;
  }
}

/** The mutation behind "Get my code": the code it returns becomes its slug's cached code. */
export function generatePartnerCodeMutation(
  http: HttpClient,
  queryClient: QueryClient,
  uuid: string,
  slug: string,
) {
  return {
    mutationFn: () => generatePartnerCode(http, uuid, slug),
    onSuccess: (code: LoyaltyPartnerCode) => {
      queryClient.setQueryData(loyaltyKeys.partnerCode(uuid, code.slug), code);
    },
  };
}
