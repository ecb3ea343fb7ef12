import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type AccountDeletionStatus } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { dataRightsKeys } from './query-keys';

/**
 * The scheduled deletion and what stops one (docs/product/data-rights.md#close-my-account). Its own
 * module: the app's guard loads it with every page, the rest of the feature's calls load with theirs.
 */
export const deletionQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: dataRightsKeys.deletion(),
    queryFn: () => http.get<AccountDeletionStatus>(apiPaths.accountDeletion),
    staleTime: 0,
  });
