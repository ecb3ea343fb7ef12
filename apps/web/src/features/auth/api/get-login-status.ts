import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { apiPaths, type LoginStatus } from '@roadpass/contracts';
import { isHttpError, type HttpClient } from '@/lib/http';
import { sessionKeys, setLoginStatus } from '@/lib/session/session-user';
import { useAppStore } from '@/lib/state/app-store';

export const USER_LOAD_ERROR = "Couldn't load user information";

export function getLoginStatus(http: HttpClient): Promise<LoginStatus> {
  return http.get<LoginStatus>(apiPaths.loginStatus);
}

/** The session user is loaded once and cached (docs/product/states.md#states-and-transitions). */
export function loginStatusQuery(http: HttpClient) {
  return queryOptions({
    queryKey: sessionKeys.loginStatus(),
    queryFn: () => getLoginStatus(http),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

/** Thrown when the session user could not be loaded; `cause` is the failed call. */
export class UserLoadError extends Error {
  override readonly name = 'UserLoadError';
  constructor(cause: unknown) {
    super(USER_LOAD_ERROR, { cause });
  }
}

/**
 * "Load user information" (docs/product/states.md#states-and-transitions, docs/product/errors.md#error-catalogue): a 400 or 401 from the login check renews the token and asks
 * once more; any failure left clears the user and raises "Couldn't load user information".
 */
export async function loadSessionUser(args: {
  http: HttpClient;
  queryClient: QueryClient;
  refreshToken: () => Promise<void>;
}): Promise<LoginStatus> {
  const { http, queryClient, refreshToken } = args;
  const fetchStatus = () => queryClient.fetchQuery(loginStatusQuery(http));
  try {
    let status: LoginStatus;
    try {
      status = await fetchStatus();
    } catch (error) {
      if (!isHttpError(error) || (error.status !== 400 && error.status !== 401)) throw error;
      await refreshToken();
      status = await fetchStatus();
    }
    // Pages without a customer keep the country start-up chose; a customer's pages show theirs.
    useAppStore.getState().setHomeLocation(status.user.legalEntityIso);
    return status;
  } catch (error) {
    setLoginStatus(queryClient, null);
    throw new UserLoadError(error);
  }
}
