import { queryOptions } from '@tanstack/react-query';
import { apiPaths, compileRules, type PasswordResponse } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { passwordKeys } from './query-keys';

/** GET password/own: never a password, only the policy (served rules) as meta. */
export const passwordPolicyQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: passwordKeys.policy(),
    queryFn: async () => {
      const response = await http.get<PasswordResponse>(apiPaths.password);
      return compileRules(response.meta.metaDataList);
    },
    staleTime: 5 * 60_000,
  });
