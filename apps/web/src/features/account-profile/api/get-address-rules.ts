import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type MetaDataList, type MetaResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { profileKeys } from './query-keys';

/** GET personaldata/own/meta/{country}[/{province}]: the rules of an address there. */
export const addressRulesQuery = (http: HttpClient, country: string, province: string | null) =>
  queryOptions({
    queryKey: profileKeys.addressRules(country, province),
    queryFn: async (): Promise<MetaDataList> => {
      const response = await http.get<MetaResponse>(
        apiPaths.personalDataMeta(country, province ?? undefined),
      );
      return response.meta.metaDataList;
    },
    // Rules are content: they change with a deployment, not while a customer edits.
    staleTime: 30 * 60_000,
  });
