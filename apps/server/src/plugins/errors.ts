import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifySchemaValidationError } from 'fastify';
import { apiErrorCodes, type ApiErrorBody, type Violation } from '@roadpass/contracts';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../db/database-unavailable.js';
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

/** The error code of a 4xx that carries none of its own (a library's error, say). */
function codeOfStatus(status: number): string {
  switch (status) {
    case 401:
      return apiErrorCodes.unauthorized;
    case 403:
      return apiErrorCodes.forbidden;
    case 404:
      return apiErrorCodes.notFound;
    case 405:
      return apiErrorCodes.methodNotAllowed;
    case 413:
      return apiErrorCodes.payloadTooLarge;
    case 415:
      return apiErrorCodes.unsupportedMediaType;
    case 429:
      return apiErrorCodes.tooManyRequests;
    default:
      return apiErrorCodes.badRequest;
  }
}

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`): an address
 * that is not valid %-encoding (400) or a path parameter over the length limit (414). They get the
 * API's error shape like everything else.
 */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply): FastifyReply {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : 400;
  const message = tooLong
    ? 'The address is too long'
    : 'The address is not valid: it has a broken %-encoding';
  const body: ApiErrorBody = {
    status,
    code: tooLong ? apiErrorCodes.uriTooLong : apiErrorCodes.validationFailed,
    message,
    violations: [{ field: 'url', rule: tooLong ? 'maxLength' : 'encoding', message }],
  };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (Fastify's `clientErrorHandler`): headers
 * or an address over Node's 16 kB limit (431) and malformed requests (400), answered in the API's
 * error shape on the raw socket.
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const message = tooLarge
    ? 'The request headers (address included) are too large'
    : 'The request is not valid HTTP';
  const body: ApiErrorBody = {
    status,
    code: tooLarge ? apiErrorCodes.headersTooLarge : apiErrorCodes.badRequest,
    message,
    violations: [{ field: 'headers', rule: tooLarge ? 'maxBytes' : 'format', message }],
  };
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
}

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
        body = { status: error.statusCode, code: codeOfStatus(error.statusCode), message: error.message };
      } else if (isDatabaseUnavailable(error)) {
        // An outage, not a bug: logged without the stack, answered so that the caller tries again. (A
        // lost or refused connection to anything else the call needed is answered the same way.)
        request.log.warn(
          { err: { message: error.message, code: error.code } },
          'unavailable: a connection the call needs was refused or lost',
        );
        reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        body = {
          status: 503,
          code: apiErrorCodes.unavailable,
          message: 'The service is unavailable for a moment; try again',
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
