import { securityErrorCodes } from '@roadpass/contracts';
import { ApiError } from '../lib/api-error.js';
import type { CustomerIdentity } from './customer-auth.js';

/**
 * Step-up (docs/product/security.md#step-up): refuses a sensitive change unless the customer signed in
 * within the last `maxAgeSeconds`, read from the access token's `auth_time`. Throws 403
 * `recent_sign_in_required`; the app then signs the customer in again with `max_age`.
 */
export function assertRecentSignIn(
  customer: CustomerIdentity,
  maxAgeSeconds: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): void {
  const authTime = customer.claims.auth_time;
  if (typeof authTime === 'number' && nowSeconds - authTime <= maxAgeSeconds) return;
  throw new ApiError(
    403,
    securityErrorCodes.recentSignInRequired,
    `This change needs a sign-in within the last ${maxAgeSeconds} seconds`,
  );
}
