import { apiErrorCodes, type ApiErrorBody, type Violation } from '@roadpass/contracts';

/** An error that becomes a JSON ApiErrorBody response with its status. Throw it from routes and hooks. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly violations?: Violation[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return {
      status: this.statusCode,
      code: this.code,
      message: this.message,
      ...(this.violations ? { violations: this.violations } : {}),
    };
  }

  static badRequest(message: string, violations?: Violation[]) {
    return new ApiError(400, apiErrorCodes.validationFailed, message, violations);
  }
  static unauthorized(message = 'A valid bearer access token is required') {
    return new ApiError(401, apiErrorCodes.unauthorized, message);
  }
  static forbidden(message = 'You may not access this resource') {
    return new ApiError(403, apiErrorCodes.forbidden, message);
  }
  static notFound(message = 'Not found') {
    return new ApiError(404, apiErrorCodes.notFound, message);
  }
}
