import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApiErrorBody,
  apiPaths,
  DeletionBlocker,
  DeletionBlockersParams,
  DeletionBlockersReport,
  ErasureFeed,
  ErasureFeedQuery,
} from '@roadpass/contracts';
import Type from 'typebox';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import { routePattern } from '../../lib/route-pattern.js';
import { replaceBlockers } from './erasure.js';

/**
 * The rental system's side of closing an account (docs/product/data-rights.md#the-rental-system),
 * with its service client token (decision 0008): it reports what stops a customer's deletion, and
 * reads the erasures since its cursor.
 */
export const dataRightsInternalRoutes: FastifyPluginAsync<{
  db: Db;
  checkServiceToken: onRequestAsyncHookHandler;
}> = async (app, { db, checkServiceToken }) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const errors = { 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody } as const;

  r.put(
    routePattern(apiPaths.internalDeletionBlockers, 'customerId'),
    {
      config: { public: true },
      onRequest: checkServiceToken,
      schema: {
        tags: ['internal'],
        summary:
          'Replaces what stops the customer’s deletion at one legal entity (open rentals, unpaid invoices, pending fines); an empty list clears it',
        security: [{ bearer: [] }],
        params: DeletionBlockersParams,
        body: DeletionBlockersReport,
        response: {
          200: Type.Object({ blockers: Type.Array(DeletionBlocker) }),
          ...errors,
          404: ApiErrorBody,
        },
      },
    },
    async (request) => {
      const blockers = await replaceBlockers(db, request.params.customerId, request.body, new Date());
      if (!blockers)
        throw ApiError.notFound('No customer with this id (erased customers are in the erasure feed)');
      return { blockers };
    },
  );

  r.get(
    apiPaths.internalErasures,
    {
      config: { public: true },
      onRequest: checkServiceToken,
      schema: {
        tags: ['internal'],
        summary: 'Customers erased after the cursor, oldest first; pass nextCursor as `after` next time',
        security: [{ bearer: [] }],
        querystring: ErasureFeedQuery,
        response: { 200: ErasureFeed, ...errors },
      },
    },
    async (request, reply) => {
      const after = request.query.after ?? 0;
      const rows = await db
        .selectFrom('erasures')
        .select(['cursor', 'customer_id', 'legal_entity_id', 'erased_at'])
        .where('cursor', '>', after as never)
        .orderBy('cursor')
        .limit(request.query.limit ?? 100)
        .execute();
      reply.header('cache-control', 'no-store');
      const erasures = rows.map((e) => ({
        cursor: Number(e.cursor),
        customerId: e.customer_id,
        legalEntityId: e.legal_entity_id,
        erasedAt: new Date(e.erased_at).toISOString(),
      }));
      return { erasures, nextCursor: erasures.at(-1)?.cursor ?? after };
    },
  );
};
