import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ApiErrorBody, apiPaths, appPaths, ErrorReportReceipt } from '@roadpass/contracts';
import type { AppConfig } from '../../config.js';
import { ApiError } from '../../lib/api-error.js';
import { checkAddressRateLimit } from '../../plugins/rate-limits.js';
import { readEnvelope, storableEnvelope, storedAttachments, withHeader } from './envelope.js';
import {
  errorReportById,
  latestErrorReports,
  setForwardStatus,
  storeErrorReport,
} from './error-report-repository.js';
import { devAttachmentPath, errorReportsPage, PREVIEWED_IMAGE_TYPES } from './error-reports-page.js';

/**
 * The largest envelope the tunnel takes: an error event with breadcrumbs is a few kB, feedback less;
 * a feedback screenshot takes the rest (the web app allows 150 kB for it, features/feedback).
 * Over it: 413 in the API's error shape, nothing stored.
 */
export const ERROR_REPORT_MAX_BYTES = 200 * 1024;
const FORWARD_TIMEOUT_MS = 5000;

const sameDsn = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The error reporting tunnel (docs/product/api.md#calls, docs/product/errors.md#error-catalogue): the browser SDK posts Sentry envelopes here instead of to a
 * third-party host, so the CSP stays 'self' and ad blockers do not hide errors. Envelopes are stored
 * (error_reports) and, when ERROR_REPORTING_FORWARD_DSN is set, forwarded to that receiver.
 *
 * No bearer token and no anti-forgery header: the SDK can send neither. That is safe because the
 * route only appends a report; it reads and changes no customer data, answers nothing but the event
 * id, and refuses envelopes for any DSN but this server's. Size- and rate-limited per address.
 */
export const errorReportRoutes: FastifyPluginAsync<{ config: AppConfig }> = async (app, { config }) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const upstream = config.errorReportingForwardDsn;
  const perAddress =
    config.errorReportsPerMinute > 0
      ? app.createRateLimit({
          max: config.errorReportsPerMinute,
          timeWindow: 60_000,
          keyGenerator: (request) => `error-reports:${request.ip}`,
        })
      : null;

  // The SDK posts text/plain (a string body) or no type at all (bytes): every body is taken as bytes here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: ERROR_REPORT_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );

  async function forward(id: string, envelope: Buffer, header: Record<string, unknown>): Promise<void> {
    if (!upstream) return;
    let status: string;
    try {
      const res = await fetch(upstream.envelopeUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-sentry-envelope',
          'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${upstream.publicKey}, sentry_client=roadpass-tunnel/1`,
        },
        body: withHeader(envelope, { ...header, dsn: upstream.dsn }),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      status = String(res.status);
      await res.body?.cancel();
    } catch (error) {
      status = `failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!/^2\d\d$/.test(status)) app.log.warn({ reportId: id, status }, 'error report not forwarded');
    await setForwardStatus(app.db, id, status);
  }

  api.post(
    apiPaths.errorReportEnvelope,
    {
      bodyLimit: ERROR_REPORT_MAX_BYTES,
      config: { public: true },
      onRequest: async (request, reply) => {
        if (perAddress) return checkAddressRateLimit(perAddress, request, reply);
      },
      schema: {
        tags: ['error-reports'],
        summary: "The error reporting SDK's tunnel: stores a Sentry envelope (errors, user feedback)",
        consumes: ['text/plain', 'application/x-sentry-envelope'],
        body: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'A Sentry envelope' }),
        response: {
          200: ErrorReportReceipt,
          400: ApiErrorBody,
          413: ApiErrorBody,
          429: ApiErrorBody,
        },
      },
      // The body is bytes, not JSON: read by readEnvelope, not by the JSON validator.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw ApiError.badRequest('An envelope is required', [
          { field: 'body', rule: 'required', message: 'Send a Sentry envelope' },
        ]);
      const summary = readEnvelope(body);
      if (typeof summary === 'string')
        throw ApiError.badRequest(summary, [{ field: 'body', rule: 'envelope', message: summary }]);
      const dsn = summary.header.dsn;
      if (dsn !== undefined && (typeof dsn !== 'string' || !sameDsn(dsn, config.errorReportingDsn)))
        throw ApiError.badRequest('The envelope is for another project', [
          { field: 'dsn', rule: 'match', message: 'Use the DSN of /config.json' },
        ]);
      const id = await storeErrorReport(app.db, {
        eventId: summary.eventId,
        itemTypes: summary.itemTypes,
        // A binary payload (a screenshot) is kept as base64 in the text column; forwarded as received.
        envelope: storableEnvelope(body, summary),
        sizeBytes: body.length,
      });
      void forward(id, body, summary.header);
      return { id: summary.eventId };
    },
  );

  // Where a person reads the reports outside production (the README says so).
  if (config.env !== 'production') {
    app.get(appPaths.devErrorReports, { schema: { hide: true } }, async (_request, reply) => {
      const reports = await latestErrorReports(app.db, 50);
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(errorReportsPage(reports));
    });
    // One attachment of a stored report (a feedback screenshot), its bytes as received.
    app.get<{ Params: { id: string; index: string } }>(
      devAttachmentPath(':id', ':index'),
      { schema: { hide: true } },
      async (request, reply) => {
        const { id, index } = request.params;
        const report = /^\d{1,18}$/.test(id) ? await errorReportById(app.db, id) : undefined;
        const attachment =
          report && /^\d{1,4}$/.test(index) ? storedAttachments(report.envelope)[Number(index)] : undefined;
        if (!attachment) throw ApiError.notFound('No such attachment');
        // Only the picture types are sent as themselves; anything else is a download, never rendered.
        const image = PREVIEWED_IMAGE_TYPES.has(attachment.contentType);
        const filename = attachment.filename.replace(/[^\w.-]/g, '_');
        return reply
          .header('cache-control', 'no-store')
          .header('content-disposition', `${image ? 'inline' : 'attachment'}; filename="${filename}"`)
          .type(image ? attachment.contentType : 'application/octet-stream')
          .send(attachment.data);
      },
    );
    // A stand-in for the tag manager's gtm.js, so the consent-gated load is real and visible in tests.
    app.get(appPaths.devTagManagerScript, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .type('text/javascript; charset=utf-8')
        .send('window.roadpassTagManagerLoads = (window.roadpassTagManagerLoads || 0) + 1;\n'),
    );
  }
};
