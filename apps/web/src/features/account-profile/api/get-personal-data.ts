import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type PersonalDataResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { profileKeys } from './query-keys';

/** GET personaldata/own: the profile, the e-mail waiting for its link, and the customer's rules. */
export const personalDataQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: profileKeys.personalData(),
    queryFn: () => http.get<PersonalDataResponse>(apiPaths.personalData),
    staleTime: 0,
  });
