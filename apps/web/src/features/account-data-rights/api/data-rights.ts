import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type AccountDeletionStatus, type DataExportStatus } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { dataRightsKeys } from './query-keys';

/** The newest export; polled every 2 s while it is being built (docs/product/data-rights.md#download-my-data). */
export const exportQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: dataRightsKeys.export(),
    queryFn: () => http.get<DataExportStatus>(apiPaths.dataExport),
    staleTime: 0,
    refetchInterval: (query) => {
      const state = query.state.data?.export?.state;
      return state === 'queued' || state === 'running' ? 2000 : false;
    },
  });

export const startExport = (http: HttpClient) => http.post<DataExportStatus>(apiPaths.dataExport);

/**
 * The ZIP, fetched with the bearer token as a blob and handed to the browser as a download (decision
 * 0042: no token ever goes into a URL).
 */
export async function downloadExport(http: HttpClient): Promise<void> {
  const blob = await http.get<Blob>(apiPaths.dataExportFile, { headers: { Accept: 'application/zip' } });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `roadpass-data-${new Date().toISOString().slice(0, 10)}.zip`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export { deletionQuery } from './deletion-query';

export const askDeletion = (http: HttpClient) => http.post<AccountDeletionStatus>(apiPaths.accountDeletion);
export const keepAccount = (http: HttpClient) => http.delete<AccountDeletionStatus>(apiPaths.accountDeletion);
