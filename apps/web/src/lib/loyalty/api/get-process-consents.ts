import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type ConsentDefinition, type ConsentDefinitionList } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

/** GET the consents of a process (e.g. the loyalty programme) in one language, with their texts. */
export async function getProcessConsents(
  http: HttpClient,
  legalEntityId: number,
  process: string,
  language: string,
): Promise<ConsentDefinition[]> {
  const list = await http.get<ConsentDefinitionList>(apiPaths.processConsents(legalEntityId, process), {
    params: { language },
  });
  return list.data;
}

export function processConsentsQuery(
  http: HttpClient,
  legalEntityId: number,
  process: string,
  language: string,
) {
  return queryOptions({
    queryKey: loyaltyKeys.processConsents(legalEntityId, process, language),
    queryFn: () => getProcessConsents(http, legalEntityId, process, language),
    staleTime: Infinity,
    retry: false,
  });
}
