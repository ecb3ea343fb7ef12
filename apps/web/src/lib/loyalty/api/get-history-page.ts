import { infiniteQueryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  HISTORY_FIRST_PAGE,
  HISTORY_PAGE_SIZE,
  type LoyaltyHistoryPage,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

export const HISTORY_ERROR = 'Loading loyalty history failed';

/** GET one page of the points history (docs/product/api.md#calls, docs/product/constants.md#business-constants: page size 100). Failures are logged and rethrown. */
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

/**
 * docs/product/states.md#states-and-transitions's paging: the first page is index 0; the next page number starts at 1 and goes up by one per
 * page loaded; more exists while totalPages exceeds that next page number.
 */
export function nextHistoryPage(lastPage: LoyaltyHistoryPage, loadedPages: number): number | undefined {
  const next = HISTORY_FIRST_PAGE + loadedPages;
  return lastPage.totalPages > next ? next : undefined;
}

/** The points history as pages appended one by one ("Load more"); isFetchingNextPage is the loading flag. */
export function historyQuery(http: HttpClient, uuid: string) {
  return infiniteQueryOptions({
    queryKey: loyaltyKeys.history(uuid),
    queryFn: ({ pageParam }) => getHistoryPage(http, uuid, pageParam),
    initialPageParam: HISTORY_FIRST_PAGE,
    getNextPageParam: (lastPage, pages) => nextHistoryPage(lastPage, pages.length),
    staleTime: 60_000,
    retry: false,
  });
}
