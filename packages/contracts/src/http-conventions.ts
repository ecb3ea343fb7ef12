// Plain values shared by both halves. No TypeBox here: the browser bundle imports this module.

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
