import Type from 'typebox';

/**
 * What the customer's security activity records (docs/product/security.md#security-activity): one
 * row per event, append-only, kept for the configured period. Every module that changes something a
 * customer must be able to check later records its event under one of these kinds.
 */
export const securityEventKinds = [
  'signed_in',
  'sign_in_failed',
  'password_changed',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'mobile_changed',
  'passkey_added',
  'passkey_removed',
  'session_ended',
  'not_me',
  'data_downloaded',
  'deletion_requested',
  'deletion_cancelled',
] as const;
export type SecurityEventKind = (typeof securityEventKinds)[number];
export const SecurityEventKind = Type.Union(securityEventKinds.map((kind) => Type.Literal(kind)));

/**
 * Error codes of the security rules. `recent_sign_in_required` (403): the change needs a sign-in
 * within the last minutes (step-up, docs/product/security.md#step-up); the app signs the customer in
 * again with `max_age` and comes back to the same form.
 */
export const securityErrorCodes = {
  recentSignInRequired: 'recent_sign_in_required',
} as const;
export type SecurityErrorCode = (typeof securityErrorCodes)[keyof typeof securityErrorCodes];
