import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  type ActiveSessionList,
  type SecurityActivityPage,
  type SessionsEnded,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { securityKeys } from './query-keys';

/** GET sessions/own: the customer's active sessions. */
export const sessionsQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: securityKeys.sessions(),
    queryFn: () => http.get<ActiveSessionList>(apiPaths.sessions),
  });

/** DELETE sessions/own/{id}: signs one session out. */
export const endSession = (http: HttpClient, id: string) => http.delete<SessionsEnded>(apiPaths.session(id));

/** DELETE sessions/own: signs every other session out. */
export const endOtherSessions = (http: HttpClient) => http.delete<SessionsEnded>(apiPaths.sessions);

const PAGE_SIZE = 20;

/** GET security-activity/own, page by page, newest first. */
export const activityQuery = (http: HttpClient) =>
  infiniteQueryOptions({
    queryKey: securityKeys.activity(),
    queryFn: ({ pageParam }) =>
      http.get<SecurityActivityPage>(`${apiPaths.securityActivity}?page=${pageParam}&size=${PAGE_SIZE}`),
    initialPageParam: 0,
    getNextPageParam: (last: SecurityActivityPage) => (last.hasMore ? last.page + 1 : undefined),
  });
