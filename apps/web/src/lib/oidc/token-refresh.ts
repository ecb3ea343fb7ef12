/** docs/product/constants.md#business-constants: the token is checked every 250 000 ms and renewed when it has less than 70 s left. */
export const REFRESH_INTERVAL_MS = 250_000;
export const MIN_VALIDITY_SECONDS = 70;
/** docs/product/constants.md#business-constants: when the token expires it is renewed with a minimum validity of 5 s. */
export const EXPIRY_MIN_VALIDITY_SECONDS = 5;
/**
 * However short-lived a token is, scheduled renewals start at least this far apart, so that a token
 * which looks expired the moment it arrives can never make the schedule spin.
 */
export const MIN_SECONDS_BETWEEN_RENEWALS = 10;
/** After a renewal that got no answer (offline, time-out, 5xx): 10 s, 20 s, 40 s … at most 5 minutes. */
export const RETRY_FIRST_DELAY_MS = 10_000;
export const RETRY_MAX_DELAY_MS = 300_000;

export interface TokenRefreshDeps {
  /**
   * When the current access token expires, in epoch seconds **of this device's clock**: the moment
   * the token response arrived plus its `expires_in` (oidc-client-ts keeps it as `User.expires_at`).
   * Never the token's `exp` claim: that is the server's clock, and a device clock a few minutes fast
   * would see every new token as expired (issue 7: 1 072 token requests in 35 s). Undefined when
   * there is no token.
   */
  getExpiresAt(): number | undefined;
  /** Renews the token with the refresh_token grant; resolves once the new token is in place. */
  refresh(): Promise<void>;
  /** Clears the stored tokens (a 400 on refresh, docs/product/errors.md#error-catalogue). */
  clearToken(): void;
  /** The identity provider refused the renewal: the user is signed out (docs/product/states.md#states-and-transitions). */
  onRefreshFailed(error: unknown): void;
  now?: () => number;
}

export interface TokenRefresher {
  /** Starts the interval and the expiry timer (again). */
  start(): void;
  stop(): void;
  /**
   * Renews the token if it expires within `minValiditySeconds` (a negative value forces a renewal).
   * Resolves true when it renewed, false when the token was still valid; rejects when renewal failed.
   */
  updateToken(minValiditySeconds: number): Promise<boolean>;
}

/** A 400 from the token endpoint: an OAuth error body (oidc-client-ts ErrorResponse) or a bare 400. */
export function isBadRequestOnRefresh(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ErrorResponse' || /\(400\)/.test(error.message);
}

/**
 * A renewal that got no answer from the identity provider: no network (fetch's TypeError), a time-out
 * (oidc-client-ts ErrorTimeout) or a server error. It says nothing about the session, so the user
 * stays signed in and the renewal is tried again later.
 */
export function isTransientRefreshFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ErrorResponse') return false;
  return error instanceof TypeError || error.name === 'ErrorTimeout' || /\(5\d\d\)/.test(error.message);
}

/**
 * The refresh schedule of docs/product/constants.md#business-constants in one small module with no knowledge of OIDC, so that it can be
 * tested with fake timers. Rules on top of the spec: at most one renewal in flight (concurrent callers
 * share it); scheduled renewals at least MIN_SECONDS_BETWEEN_RENEWALS apart; a renewal without an
 * answer is retried with exponential back-off instead of signing the user out.
 */
export function createTokenRefresher(deps: TokenRefreshDeps): TokenRefresher {
  const now = deps.now ?? Date.now;
  let interval: ReturnType<typeof setInterval> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<boolean> | undefined;
  let lastRenewalStartedAt = -Infinity;
  let failuresInARow = 0;

  const ignore = () => {};

  /** A scheduled (not forced) renewal waits until the last one is far enough behind. */
  function msUntilRenewalAllowed(): number {
    return Math.max(0, lastRenewalStartedAt + MIN_SECONDS_BETWEEN_RENEWALS * 1000 - now());
  }

  function armExpiryTimer(): void {
    clearTimeout(expiryTimer);
    expiryTimer = undefined;
    const expiresAt = deps.getExpiresAt();
    // While a retry after a failed renewal waits, it is the next renewal.
    if (expiresAt === undefined || retryTimer !== undefined) return;
    // Timers cannot wait longer than 2^31-1 ms; such a token is renewed by the interval anyway.
    const untilExpiry = Math.max(0, expiresAt * 1000 - now());
    const delay = Math.min(Math.max(untilExpiry, msUntilRenewalAllowed()), 2_147_483_647);
    expiryTimer = setTimeout(() => void updateToken(EXPIRY_MIN_VALIDITY_SECONDS).catch(ignore), delay);
  }

  function scheduleRetry(): void {
    clearTimeout(retryTimer);
    clearTimeout(expiryTimer);
    expiryTimer = undefined;
    const delay = Math.min(RETRY_FIRST_DELAY_MS * 2 ** (failuresInARow - 1), RETRY_MAX_DELAY_MS);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void updateToken(EXPIRY_MIN_VALIDITY_SECONDS).catch(ignore);
    }, delay);
  }

  function updateToken(minValiditySeconds: number): Promise<boolean> {
    if (inFlight) return inFlight;
    const forced = minValiditySeconds < 0;
    const expiresAt = deps.getExpiresAt();
    const secondsLeft = expiresAt === undefined ? -Infinity : expiresAt - now() / 1000;
    if (!forced && secondsLeft >= minValiditySeconds) return Promise.resolve(false);
    if (!forced && msUntilRenewalAllowed() > 0) {
      // Renewed a moment ago and the new token already looks short: wait for the expiry timer.
      armExpiryTimer();
      return Promise.resolve(false);
    }

    lastRenewalStartedAt = now();
    inFlight = deps
      .refresh()
      .then(
        () => {
          failuresInARow = 0;
          clearTimeout(retryTimer);
          retryTimer = undefined;
          armExpiryTimer();
          return true;
        },
        (error: unknown) => {
          if (isTransientRefreshFailure(error)) {
            failuresInARow += 1;
            console.warn(`Token renewal got no answer (attempt ${failuresInARow}); trying again`, error);
            scheduleRetry();
            throw error;
          }
          if (isBadRequestOnRefresh(error)) deps.clearToken();
          stop();
          deps.onRefreshFailed(error);
          throw error;
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  function stop(): void {
    clearInterval(interval);
    clearTimeout(expiryTimer);
    clearTimeout(retryTimer);
    interval = undefined;
    expiryTimer = undefined;
    retryTimer = undefined;
  }

  /** Starts (again) the interval and the expiry timer; a retry already waiting is kept. */
  function start(): void {
    clearInterval(interval);
    interval = setInterval(() => void updateToken(MIN_VALIDITY_SECONDS).catch(ignore), REFRESH_INTERVAL_MS);
    armExpiryTimer();
  }

  return { start, stop, updateToken };
}
