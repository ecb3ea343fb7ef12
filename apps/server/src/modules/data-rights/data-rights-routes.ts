import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AccountDeletionStatus,
  ApiErrorBody,
  apiPaths,
  dataRightsErrorCodes,
  DataExportStatus,
} from '@roadpass/contracts';
import { ApiError } from '../../lib/api-error.js';
import { assertRecentSignIn } from '../../plugins/recent-sign-in.js';
import { signedInCustomer, type CustomerRepository } from '../customers/index.js';
import {
  cancelDeletion,
  DeletionBlocked,
  deletionStatus,
  scheduleDeletion,
  type ErasureDeps,
} from './erasure.js';
import {
  exportStatus,
  ExportTooSoon,
  readyExportFile,
  recordDownload,
  requestExport,
} from './export-jobs.js';

export interface DataRightsRoutesOptions {
  customers: CustomerRepository;
  erasure: ErasureDeps;
  recentSignInSeconds: number;
  /** Tells this instance's worker that an export waits (others find it on their next round). */
  exportQueued: () => void;
  now?: () => Date;
}

/**
 * The customer's data rights (docs/product/data-rights.md): download my data (start, progress, the
 * ZIP) and close my account (blockers and schedule, ask, keep). Every call works on the token's own
 * customer only: there is no customer id in these paths to change.
 */
export const dataRightsRoutes: FastifyPluginAsync<DataRightsRoutesOptions> = async (
  app,
  { customers, erasure, recentSignInSeconds, exportQueued, now = () => new Date() },
) => {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const errors = { 401: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody } as const;

  r.get(
    apiPaths.dataExport,
    {
      schema: {
        tags: ['customer'],
        summary: "The customer's newest data export (progress, download until) and when the next may start",
        security: [{ bearer: [] }],
        response: { 200: DataExportStatus, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      reply.header('cache-control', 'no-store');
      return exportStatus(app.db, customer.id, now());
    },
  );

  r.post(
    apiPaths.dataExport,
    {
      schema: {
        tags: ['customer'],
        summary:
          'Starts building the customer’s data export in the background (one a day; needs a recent sign-in)',
        security: [{ bearer: [] }],
        response: { 202: DataExportStatus, ...errors, 429: ApiErrorBody },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      assertRecentSignIn(request.customer!, recentSignInSeconds);
      try {
        const status = await requestExport(app.db, customer.id, now());
        exportQueued();
        reply.header('cache-control', 'no-store');
        return reply.code(202).send(status);
      } catch (error) {
        if (!(error instanceof ExportTooSoon)) throw error;
        const seconds = Math.max(1, Math.ceil((error.nextAllowedAt.getTime() - now().getTime()) / 1000));
        reply.header('retry-after', String(seconds));
        const message = `One export a day: the next may start at ${error.nextAllowedAt.toISOString()}`;
        throw new ApiError(429, dataRightsErrorCodes.exportOncePerDay, message, [
          { field: 'export', rule: 'oncePerDay', message },
        ]);
      }
    },
  );

  r.get(
    apiPaths.dataExportFile,
    {
      schema: {
        tags: ['customer'],
        summary: 'The ZIP of the customer’s ready export (7 days after it was ready), streamed',
        security: [{ bearer: [] }],
        response: {
          200: {
            description: 'The ZIP',
            content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      const file = await readyExportFile(app.db, customer.id, now());
      if (!file) {
        throw new ApiError(
          404,
          dataRightsErrorCodes.exportNotReady,
          'No ready export: start one, or wait until it is ready',
        );
      }
      await recordDownload(app.db, customer.id, file.id);
      const day = file.readyAt.toISOString().slice(0, 10);
      return reply
        .header('cache-control', 'no-store')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="roadpass-data-${day}.zip"`)
        .type('application/zip')
        .send(file.stream as unknown as string);
    },
  );

  r.get(
    apiPaths.accountDeletion,
    {
      schema: {
        tags: ['customer'],
        summary: 'What stops closing the account (per legal entity) and the scheduled deletion, if any',
        security: [{ bearer: [] }],
        response: { 200: AccountDeletionStatus, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      reply.header('cache-control', 'no-store');
      return deletionStatus(app.db, customer.id, erasure.graceDays);
    },
  );

  r.post(
    apiPaths.accountDeletion,
    {
      schema: {
        tags: ['customer'],
        summary:
          'Schedules the deletion of the account (grace period; needs a recent sign-in; refused while the rental system reports a blocker)',
        security: [{ bearer: [] }],
        response: { 200: AccountDeletionStatus, 201: AccountDeletionStatus, ...errors, 409: ApiErrorBody },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      assertRecentSignIn(request.customer!, recentSignInSeconds);
      try {
        const { status, created } = await scheduleDeletion(
          erasure,
          customer.id,
          request.customer!.sessionId,
          now(),
        );
        reply.header('cache-control', 'no-store');
        return reply.code(created ? 201 : 200).send(status);
      } catch (error) {
        if (!(error instanceof DeletionBlocked)) throw error;
        throw new ApiError(
          409,
          dataRightsErrorCodes.deletionBlocked,
          'The rental system reports something to settle first',
          error.blockers.map((b) => ({
            field: `blockers.${b.legalEntityId}.${b.kind}`,
            rule: b.kind,
            message: `Legal entity ${b.legalEntityId}: ${b.kind} ${b.reference}`,
          })),
        );
      }
    },
  );

  r.delete(
    apiPaths.accountDeletion,
    {
      schema: {
        tags: ['customer'],
        summary: '"Keep my account": cancels a scheduled deletion (nothing to cancel is fine too)',
        security: [{ bearer: [] }],
        response: { 200: AccountDeletionStatus, ...errors },
      },
    },
    async (request, reply) => {
      const customer = await signedInCustomer(customers, request);
      await cancelDeletion(app.db, customer.id);
      reply.header('cache-control', 'no-store');
      return deletionStatus(app.db, customer.id, erasure.graceDays);
    },
  );
};
