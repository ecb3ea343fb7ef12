import { apiPaths, type PersonalDataPartialUpdate, type PersonalDataResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/**
 * "Update the user's language" (docs/product/api.md#calls store actions): a partial profile with the language. The
 * server answers the whole profile (PersonalDataResponse).
 */
export function saveLanguage(
  http: HttpClient,
  language: string,
  country: string,
): Promise<PersonalDataResponse> {
  const body: PersonalDataPartialUpdate = { language: `${language}_${country}` };
  return http.post<PersonalDataResponse>(apiPaths.personalData, body);
}
