import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiErrorBody, apiPaths, LogoutResult } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';

interface SessionPayload {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

/**
 * Ends the signed-in customer's session at the embedded identity provider: the session of the access
 * token's `sid` (every session of the customer when the token has none), with every grant it holds and
 * every token of those grants, so the refresh token stops working. Works on the provider's storage
 * (oidc_model_instances), which every instance shares. Returns how many sessions ended.
 */
export async function endSessions(db: Db, customerId: string, sid: string | undefined): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('oidc_model_instances')
      .select(['id', 'payload'])
      .where('kind', '=', 'Session')
      .execute();
    const sessions = rows.filter((row) => {
      const payload = row.payload as SessionPayload;
      if (payload.accountId !== customerId) return false;
      if (sid === undefined) return true;
      return Object.values(payload.authorizations ?? {}).some((a) => a.sid === sid);
    });
    const grantIds = sessions.flatMap((row) =>
      Object.values((row.payload as SessionPayload).authorizations ?? {})
        .map((a) => a.grantId)
        .filter((id): id is string => typeof id === 'string'),
    );
    if (grantIds.length) {
      await tx.deleteFrom('oidc_model_instances').where('grant_id', 'in', grantIds).execute();
      await tx
        .deleteFrom('oidc_model_instances')
        .where('kind', '=', 'Grant')
        .where('id', 'in', grantIds)
        .execute();
    }
    if (sessions.length) {
      await tx
        .deleteFrom('oidc_model_instances')
        .where('kind', '=', 'Session')
        .where(
          'id',
          'in',
          sessions.map((s) => s.id),
        )
        .execute();
    }
    return sessions.length;
  });
}

/**
 * POST …/customer/logout (docs/product/api.md#calls): ends the customer's session on the server. The access token in
 * hand stays valid until it expires (minutes; it is a signed token checked without a lookup); the
 * refresh token and the provider's session cookie stop working at once. With an external issuer the
 * session lives there: nothing to end here (0).
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
        summary: "End the signed-in customer's session: its grants and refresh tokens stop working",
        security: [{ bearer: [] }],
        response: { 200: LogoutResult, 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request) => {
      const { customerId, sessionId } = request.customer!;
      const sessionsEnded = embeddedProvider ? await endSessions(app.db, customerId, sessionId) : 0;
      request.log.info({ sessionsEnded }, 'customer signed out');
      return { sessionsEnded };
    },
  );
};
