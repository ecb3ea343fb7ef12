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
  uriTooLong: 'uri_too_long',
  headersTooLarge: 'headers_too_large',
  badRequest: 'bad_request',
  internal: 'internal_error',
  /** The database cannot be reached for a moment (503 with Retry-After): try again. */
  unavailable: 'service_unavailable',
  faultInjected: 'fault_injected',
} as const;
export type ApiErrorCode = (typeof apiErrorCodes)[keyof typeof apiErrorCodes];

/** Error codes of the loyalty calls, next to the shared ones: the app tells these apart by code. */
export const loyaltyErrorCodes = {
  notAMember: 'not_a_member',
  rewardLocked: 'reward_locked',
  unknownReward: 'unknown_reward',
  notAPartnerReward: 'not_a_partner_reward',
  partnerCodeNotFound: 'partner_code_not_found',
  serviceNotConfigured: 'service_client_not_configured',
} as const;
export type LoyaltyErrorCode = (typeof loyaltyErrorCodes)[keyof typeof loyaltyErrorCodes];

/**
 * Rule names a violation (`{field, rule, message}`) carries. The validators of docs/product/account-rules.md#validation-rules keep their
 * names; request checks use the JSON-Schema keyword they broke. The app picks its message by rule
 * (`violation-{rule}` in the translations), so both halves use these names, never bare strings.
 */
export const violationRules = {
  // docs/product/account-rules.md#validation-rules validators.
  required: 'required',
  pattern: 'pattern',
  phone: 'phone',
  email: 'email',
  listMatch: 'listMatch',
  rangelength: 'rangelength',
  // Request checks (JSON Schema keywords and body checks).
  format: 'format',
  type: 'type',
  minLength: 'minLength',
  maxLength: 'maxLength',
  minimum: 'minimum',
  maximum: 'maximum',
  enum: 'enum',
  unknownField: 'unknownField',
  json: 'json',
  mediaType: 'mediaType',
  maxBytes: 'maxBytes',
  encoding: 'encoding',
  // Rules of the calls themselves.
  match: 'match',
} as const;
export type ViolationRule = (typeof violationRules)[keyof typeof violationRules];

/** The anti-forgery header of docs/product/api.md#calls (docs/product/api.md#errors-and-anti-forgery). */
export const CSRF_HEADER = 'X-CSRF-TOKEN';

/** Id of the JSON block in the app's HTML that carries the runtime configuration (/config.json's body). */
export const RUNTIME_CONFIG_ELEMENT_ID = 'roadpass-config';

/**
 * sessionStorage key of the tab's access token (docs/product/data.md#entities-and-fields): the web
 * app writes it; the app's HTML asks whether it is there before the entry runs (a tab without it
 * signs in first, and gets the sign-in client's code preloaded: decision 0072).
 */
export const ACCESS_TOKEN_STORAGE_KEY = 'roadpass.token';

/**
 * The app runs inside the native apps when the address says `is_webview=true` or the user agent
 * contains "webview" (docs/product/addresses-and-routes.md#screens-and-routes): no OIDC sign-in there.
 */
export const WEBVIEW_QUERY_PARAMETER = 'is_webview';
export const WEBVIEW_USER_AGENT = /webview/i;

/**
 * The files the web app's build writes beside index.html for the server (apps/web/build/
 * preload-with-entry.ts): the chunks each loyalty address preloads (decision 0070), and those a tab
 * without a token preloads (decision 0072).
 */
export const webBuildFiles = {
  addressPreloads: 'address-preloads.json',
  signedOutPreloads: 'signed-out-preloads.json',
} as const;
