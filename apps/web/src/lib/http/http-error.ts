import type { ApiErrorBody, ApiErrorCode, LoyaltyErrorCode } from '@roadpass/contracts';
import type { RequestConfig } from './types';

/**
 * The one error every failed call rejects with: the HTTP status (0 when no response arrived) and the
 * server's ApiErrorBody when the response carried one.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly body: ApiErrorBody | undefined;
  readonly config: RequestConfig;
  readonly headers: Headers | undefined;

  constructor(args: {
    status: number;
    config: RequestConfig;
    body?: ApiErrorBody | undefined;
    headers?: Headers | undefined;
    cause?: unknown;
  }) {
    const what = `${(args.config.method ?? 'GET').toUpperCase()} ${args.config.url}`;
    super(
      args.status === 0
        ? `Network error: ${what}`
        : `${args.body?.message ?? 'Request failed'} (${args.status}): ${what}`,
      { cause: args.cause },
    );
    this.status = args.status;
    this.body = args.body;
    this.config = args.config;
    this.headers = args.headers;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/** How much of a request id the customer reads out to support: enough to find it in the logs. */
const REFERENCE_LENGTH = 8;

/**
 * The reference a server error shows the customer (docs/product/states.md#a-reference-for-support):
 * the start of the failed request's id (X-Request-Id), under which the server, the load balancer
 * and the trace log it. None for an answer below 500, or no answer at all. An error that wraps the
 * failed call (as `cause`) gives the call's.
 */
export function supportReference(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (isHttpError(current)) {
      const id = current.status >= 500 ? current.headers?.get('x-request-id') : undefined;
      return id ? id.slice(0, REFERENCE_LENGTH) : undefined;
    }
    current = current.cause;
  }
  return undefined;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.status === 'number' && typeof body.code === 'string' && typeof body.message === 'string';
}

/**
 * Whether a failed call was rejected with this error code (apiErrorCodes, loyaltyErrorCodes of the
 * contracts). The app tells errors apart by code, never by a bare status.
 */
export function hasErrorCode(
  error: unknown,
  code: ApiErrorCode | LoyaltyErrorCode | (string & {}),
): error is HttpError {
  return isHttpError(error) && error.body?.code === code;
}

/**
 * Whether a call failed because no answer came (no connection, the browser offline), as opposed to an
 * answer with an error status: the customer is told to check the connection only then (issue 17).
 */
export function isOfflineError(error: unknown): boolean {
  return isHttpError(error) && error.status === 0;
}
