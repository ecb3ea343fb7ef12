import fp from 'fastify-plugin';
import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { apiErrorCodes, type ApiErrorBody, type Violation } from '@roadpass/contracts';
import { ApiError } from '../lib/api-error.js';

/** Turns ajv errors into violations that name the field and the rule. */
export function violationsOf(
  errors: FastifySchemaValidationError[],
  context: string | undefined,
): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const child =
      (params.missingProperty as string | undefined) ??
      (params.additionalProperty as string | undefined) ??
      '';
    const field = [path, child].filter(Boolean).join('.') || (context ?? 'body');
    const rule = error.keyword === 'additionalProperties' ? 'unknownField' : error.keyword;
    const key = `${field}|${rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const message =
      rule === 'unknownField'
        ? `${field} is not an accepted field`
        : `${field} ${error.message ?? 'is invalid'}`;
    violations.push({ field, rule, message });
  }
  return violations;
}

const clientErrorsByCode: Record<string, { status: number; code: string; message: string; rule?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: apiErrorCodes.payloadTooLarge,
    message: 'The request body is too large',
    rule: 'maxBytes',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: apiErrorCodes.unsupportedMediaType,
    message: 'Send the body as application/json',
    rule: 'mediaType',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: apiErrorCodes.validationFailed,
    message: 'The JSON body is empty',
    rule: 'required',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: apiErrorCodes.validationFailed,
    message: 'The Content-Length does not match the body',
    rule: 'contentLength',
  },
};

/**
 * One place that turns every failure into a JSON ApiErrorBody: validation (400 with violations),
 * malformed or oversized bodies (4xx), thrown ApiErrors, and anything unexpected (500, logged,
 * without internal details).
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      let body: ApiErrorBody;
      if (error instanceof ApiError) {
        body = error.toBody();
      } else if (error.validation) {
        body = {
          status: 400,
          code: apiErrorCodes.validationFailed,
          message: `Invalid ${error.validationContext ?? 'request'}`,
          violations: violationsOf(error.validation, error.validationContext),
        };
      } else if (error.code && clientErrorsByCode[error.code]) {
        const known = clientErrorsByCode[error.code]!;
        body = {
          status: known.status,
          code: known.code,
          message: known.message,
          violations: [{ field: 'body', rule: known.rule ?? 'format', message: known.message }],
        };
      } else if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        body = {
          status: 400,
          code: apiErrorCodes.validationFailed,
          message: 'The body is not valid JSON',
          violations: [{ field: 'body', rule: 'json', message: 'The body is not valid JSON' }],
        };
      } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        body = {
          status: error.statusCode,
          code: error.statusCode === 429 ? apiErrorCodes.tooManyRequests : 'bad_request',
          message: error.message,
        };
      } else {
        request.log.error({ err: error }, 'unhandled error');
        body = { status: 500, code: apiErrorCodes.internal, message: 'Something went wrong on our side' };
      }
      if (body.status >= 500 && !(error instanceof ApiError)) reply.header('cache-control', 'no-store');
      return reply.status(body.status).type('application/json; charset=utf-8').send(body);
    });
  },
  { name: 'errors' },
);
