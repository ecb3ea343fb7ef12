import { queryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  EDITABLE_BY_CUSTOMER_SET,
  type ConsentDefinition,
  type ConsentDefinitionList,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { privacyKeys } from './query-keys';

/** GET the consents of the legal entity that the customer may edit, with their texts in one language. */
export async function getEditableConsents(
  http: HttpClient,
  legalEntityId: number,
  language: string,
): Promise<ConsentDefinition[]> {
  const list = await http.get<ConsentDefinitionList>(
    apiPaths.consentSet(legalEntityId, EDITABLE_BY_CUSTOMER_SET),
    { params: { language } },
  );
  return list.data;
}

/** Content, not personal data: loaded once per entity and language. */
export const editableConsentsQuery = (http: HttpClient, legalEntityId: number, language: string) =>
  queryOptions({
    queryKey: privacyKeys.consentSet(legalEntityId, EDITABLE_BY_CUSTOMER_SET, language),
    queryFn: () => getEditableConsents(http, legalEntityId, language),
    staleTime: Infinity,
  });
