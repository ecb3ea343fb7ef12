import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ActiveSessionList,
  ApiErrorBody,
  apiPaths,
  SessionIdParams,
  SessionsEnded,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { endSessions } from './end-sessions.js';
import { sessionLister } from './session-devices.js';
import { routePattern } from '../../lib/route-pattern.js';

const languageOf = (claims: Record<string, unknown>) =>
  typeof claims.locale === 'string' ? claims.locale : 'en';

/**
 * The customer's sessions (docs/product/security.md#sessions, docs/product/api.md#calls): the list,
 * signing out one of them, signing out all others. Ends take effect at once on every instance.
 */
export const sessionsRoutes: FastifyPluginAsync<{ embeddedProvider: boolean }> = async (
  app,
  { embeddedProvider },
) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const listSessions = sessionLister(app.db, () => app.sessionState.places);

  api.get(
    apiPaths.sessions,
    {
      schema: {
        tags: ['customer'],
        summary: "The customer's active sessions: device, place, signed in at, last active, this device",
        security: [{ bearer: [] }],
        response: { 200: ActiveSessionList, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request) => {
      const { customerId, sessionId, claims } = request.customer!;
      const sessions = await listSessions(customerId, sessionId, languageOf(claims));
      return { sessions };
    },
  );

  api.delete(
    routePattern(apiPaths.session, 'sessionId'),
    {
      schema: {
        tags: ['customer'],
        summary: "Sign out one of the customer's sessions: its tokens stop working at once",
        security: [{ bearer: [] }],
        params: SessionIdParams,
        response: {
          200: SessionsEnded,
          400: ApiErrorBody,
          401: ApiErrorBody,
          403: ApiErrorBody,
          404: ApiErrorBody,
        },
      },
    },
    async (request) => {
      const { customerId, sessionId } = request.customer!;
      const reason = request.params.sessionId === sessionId ? 'signed_out' : 'signed_out_elsewhere';
      const ended = embeddedProvider
        ? await endSessions(app.db, customerId, { only: request.params.sessionId }, reason)
        : [];
      // Another customer's session, an ended one and an unknown id look alike.
      if (!ended.length) throw ApiError.notFound('No such session');
      return { sessionsEnded: ended.length };
    },
  );

  api.delete(
    apiPaths.sessions,
    {
      schema: {
        tags: ['customer'],
        summary: 'Sign out every other session of the customer (this one stays)',
        security: [{ bearer: [] }],
        response: { 200: SessionsEnded, 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request) => {
      const { customerId, sessionId } = request.customer!;
      if (embeddedProvider && !sessionId) throw ApiError.badRequest('The access token names no session');
      const ended = embeddedProvider
        ? await endSessions(app.db, customerId, { except: sessionId }, 'signed_out_elsewhere')
        : [];
      return { sessionsEnded: ended.length };
    },
  );
};
