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
