import Type from 'typebox';

/** One broken rule: which field (or parameter, or header) and which rule it broke. */
export const Violation = Type.Object({
  field: Type.String({ description: 'Field, query parameter or header that broke the rule' }),
  rule: Type.String({ description: 'Name of the rule, e.g. required, maxLength, format, pattern' }),
  message: Type.String({ description: 'English explanation for developers' }),
});
export type Violation = Type.Static<typeof Violation>;

/**
 * Every rejected request under /api (and every error of the server) carries this body.
 * `code` is stable and machine-readable; `message` is for people reading logs.
 */
export const ApiErrorBody = Type.Object({
  status: Type.Integer({ minimum: 400, maximum: 599 }),
  code: Type.String({ description: 'Stable error code, e.g. validation_failed, unauthorized, csrf_invalid' }),
  message: Type.String(),
  violations: Type.Optional(Type.Array(Violation)),
});
export type ApiErrorBody = Type.Static<typeof ApiErrorBody>;

export const apiErrorCodes = {
  validationFailed: 'validation_failed',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  csrfInvalid: 'csrf_invalid',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  tooManyRequests: 'too_many_requests',
  internal: 'internal_error',
  faultInjected: 'fault_injected',
} as const;

/** The anti-forgery header of spec §7 (product decisions §7). */
export const CSRF_HEADER = 'X-CSRF-TOKEN';
