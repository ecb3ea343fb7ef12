import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  apiErrorCodes,
  apiPaths,
  ApiErrorBody,
  LoyaltyEventBatch,
  LoyaltyEventBatchResult,
  type LoyaltyEventOutcome,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { BatchLaneFull, type BatchLane } from './batch-lane.js';
import { incomingEventViolations, systemClock, type Clock } from './loyalty-rules.js';
import type { LoyaltyService } from './loyalty-service.js';

/** Room for a full batch of 500 events with long descriptions, whatever the general body limit. */
const BATCH_BODY_LIMIT_BYTES = 512 * 1024;

export interface InternalEventsRoutesOptions {
  service: LoyaltyService;
  /** Batches run one at a time and leave the customers their share of the time (batch-lane.ts). */
  lane: BatchLane;
  /** Accepts only a service client's token with the loyalty events scope. */
  checkServiceToken: onRequestAsyncHookHandler;
  bodyLimitBytes: number;
  clock?: Clock;
}

/**
 * POST /api/internal/loyalty/events: points events from the rental system. A batch is checked as a
 * whole first (any broken event: 400 naming it, nothing recorded); then, in one transaction and in
 * batch order, each event is recorded, found to be a duplicate, or refused for a non-member, and the
 * answer says which and why. Batches take turns (batch-lane.ts): one that would wait behind too many
 * others is refused with 429 and Retry-After, nothing recorded.
 */
export const internalEventsRoutes: FastifyPluginAsync<InternalEventsRoutesOptions> = async (
  app,
  { service, lane, checkServiceToken, bodyLimitBytes, clock = systemClock },
) => {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    apiPaths.internalLoyaltyEvents,
    {
      // Not a customer call: the customer check skips it, the service token check below applies.
      config: { public: true },
      onRequest: checkServiceToken,
      bodyLimit: Math.max(bodyLimitBytes, BATCH_BODY_LIMIT_BYTES),
      schema: {
        tags: ['internal'],
        summary: 'Records points events of the rental system (service client token, scope loyalty:events)',
        security: [{ bearer: [] }],
        body: LoyaltyEventBatch,
        response: {
          200: LoyaltyEventBatchResult,
          400: ApiErrorBody,
          401: ApiErrorBody,
          403: ApiErrorBody,
          413: ApiErrorBody,
          415: ApiErrorBody,
          429: ApiErrorBody,
        },
      },
    },
    async (request, reply) => {
      const now = clock();
      const violations = request.body.events.flatMap((event, i) =>
        incomingEventViolations(event, now, `events.${i}`),
      );
      if (violations.length > 0) {
        throw ApiError.badRequest('Some events break the loyalty rules: nothing was recorded', violations);
      }
      // One transaction for the whole batch: answered only once it is committed, so an acknowledged
      // event is never lost, and resending an unacknowledged batch records each event once.
      const outcomes = await lane
        .run(() => service.applyEvents(request.body.events, now))
        .catch((error) => {
          if (!(error instanceof BatchLaneFull)) throw error;
          reply.header('retry-after', String(error.retryAfterSeconds));
          const message = `Too many batches are waiting: nothing was recorded, send this batch again in ${error.retryAfterSeconds} s`;
          throw new ApiError(429, apiErrorCodes.tooManyRequests, message, [
            { field: 'events', rule: 'batchQueue', message },
          ]);
        });
      const count = (status: LoyaltyEventOutcome['status']) =>
        outcomes.filter((o) => o.status === status).length;
      request.log.info(
        { client: request.serviceClient?.clientId, events: outcomes.length },
        'loyalty events received',
      );
      return {
        recorded: count('recorded'),
        duplicates: count('duplicate'),
        refused: count('not-member'),
        outcomes,
      };
    },
  );
};
