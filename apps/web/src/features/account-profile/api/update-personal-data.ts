import { apiPaths, type PersonalDataResponse, type PersonalDataRTO } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** PUT personaldata/own with the full profile; answers the saved profile with its rules. */
export function updatePersonalData(
  http: HttpClient,
  profile: PersonalDataRTO,
): Promise<PersonalDataResponse> {
  return http.put<PersonalDataResponse>(apiPaths.personalData, profile);
}
