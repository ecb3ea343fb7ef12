// A plain module (no schema library): the app imports these (decision 0014).

/**
 * Error codes of the security rules. `recent_sign_in_required` (403): the change needs a sign-in
 * within the last minutes (step-up, docs/product/security.md#step-up); the app signs the customer in
 * again with `max_age` and comes back to the same form.
 */
export const securityErrorCodes = {
  recentSignInRequired: 'recent_sign_in_required',
} as const;
export type SecurityErrorCode = (typeof securityErrorCodes)[keyof typeof securityErrorCodes];
