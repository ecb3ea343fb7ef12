import { apiPaths, type PasswordUpdate } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';

/** PUT password/own with the old and the new password. */
export function updatePassword(http: HttpClient, update: PasswordUpdate): Promise<unknown> {
  return http.put(apiPaths.password, update);
}
