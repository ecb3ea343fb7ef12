import { apiPaths, HISTORY_PAGE_SIZE, type LoyaltyHistoryPage } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

export const HISTORY_ERROR = 'Loading loyalty history failed';

/** GET one page of the points history (spec §7, §9: page size 100). Failures are logged and rethrown. */
export async function getHistoryPage(
  http: HttpClient,
  uuid: string,
  pageIndex: number,
): Promise<LoyaltyHistoryPage> {
  try {
    return await http.get<LoyaltyHistoryPage>(apiPaths.loyaltyHistory(uuid), {
      params: { page_size: HISTORY_PAGE_SIZE, page_index: pageIndex },
    });
  } catch (error) {
    console.error(HISTORY_ERROR, error);
    throw error;
  }
}
