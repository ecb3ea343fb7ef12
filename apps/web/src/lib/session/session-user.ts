import { skipToken, useQuery, type QueryClient } from '@tanstack/react-query';
import type { LoginStatus, SessionUser } from '@roadpass/contracts';

/**
 * The signed-in customer lives in one place: the login-status query of TanStack Query, the app's one
 * cache of server data (decision 0023). Start-up fills it (features/auth), saves update it
 * here, and every screen reads it through `useSessionUser`; nothing keeps a second copy.
 */
export const sessionKeys = {
  all: ['session'] as const,
  loginStatus: () => [...sessionKeys.all, 'login-status'] as const,
};

/** Read-only view of the cached login status: never fetches (start-up does, with its token rules). */
const cachedLoginStatus = {
  queryKey: sessionKeys.loginStatus(),
  queryFn: skipToken,
  staleTime: Infinity,
  gcTime: Infinity,
} as const;

/** The signed-in customer, or null before start-up loaded them (or when that failed). */
export function useSessionUser(): SessionUser | null {
  return (
    useQuery<LoginStatus, Error, SessionUser | null>({ ...cachedLoginStatus, select: (s) => s.user }).data ??
    null
  );
}

/** The same outside React (start-up, event handlers). */
export function sessionUserOf(queryClient: QueryClient): SessionUser | null {
  return queryClient.getQueryData<LoginStatus>(sessionKeys.loginStatus())?.user ?? null;
}

/** After a save: the changed fields of the signed-in customer, so every screen shows them at once. */
export function updateSessionUser(queryClient: QueryClient, changes: Partial<SessionUser>): void {
  queryClient.setQueryData<LoginStatus>(sessionKeys.loginStatus(), (status) =>
    status ? { ...status, user: { ...status.user, ...changes } } : status,
  );
}

/** Puts a known login status in the cache (tests, and start-up once loaded); null forgets it. */
export function setLoginStatus(queryClient: QueryClient, status: LoginStatus | null): void {
  if (status) queryClient.setQueryData(sessionKeys.loginStatus(), status);
  else queryClient.removeQueries({ queryKey: sessionKeys.loginStatus(), exact: true });
}

/** Logged in exactly when the user uuid is non-empty (docs/product: session user). */
export function isSignedIn(user: SessionUser | null): boolean {
  return Boolean(user?.uuid);
}
