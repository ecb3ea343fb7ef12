import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiErrorBody, apiPaths, LogoutResult } from '@roadpass/contracts';
import { endSessions } from '../sessions/index.js';

/**
 * POST …/customer/logout (docs/product/api.md#calls): ends the customer's session on the server: the
 * refresh token and the provider's session cookie stop working, and the access token in hand is
 * refused by every instance within a second (docs/product/security.md#sessions). With an external
 * issuer the session lives there: nothing to end here (0).
 */
export const logoutRoutes: FastifyPluginAsync<{ embeddedProvider: boolean }> = async (
  app,
  { embeddedProvider },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    apiPaths.logout,
    {
      schema: {
        tags: ['customer'],
        summary: "End the signed-in customer's session: its grants and tokens stop working",
        security: [{ bearer: [] }],
        response: { 200: LogoutResult, 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request) => {
      const { customerId, sessionId } = request.customer!;
      // The session of the token's `sid`; every session of the customer when the token has none.
      const sessionsEnded = embeddedProvider
        ? (await endSessions(app.db, customerId, sessionId ? { only: sessionId } : 'all', 'signed_out'))
            .length
        : 0;
      request.log.info({ sessionsEnded }, 'customer signed out');
      return { sessionsEnded };
    },
  );
};
