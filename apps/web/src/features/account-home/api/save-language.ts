import { apiPaths, type LoginStatus, type PersonalDataPartialUpdate } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** "Update the user's language" (spec §7 store actions): a partial profile with the language. */
export function saveLanguage(http: HttpClient, language: string, country: string): Promise<LoginStatus> {
  const body: PersonalDataPartialUpdate = { language: `${language}_${country}` };
  return http.post<LoginStatus>(apiPaths.personalData, body);
}
