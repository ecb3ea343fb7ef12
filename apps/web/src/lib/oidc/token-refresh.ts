/** Spec §9: the token is checked every 250 000 ms and renewed when it has less than 70 s left. */
export const REFRESH_INTERVAL_MS = 250_000;
export const MIN_VALIDITY_SECONDS = 70;
/** Spec §9: when the token expires it is renewed with a minimum validity of 5 s. */
export const EXPIRY_MIN_VALIDITY_SECONDS = 5;

export interface TokenRefreshDeps {
  /** Expiry of the current access token in epoch seconds; undefined when there is no token. */
  getExpiresAt(): number | undefined;
  /** Renews the token with the refresh_token grant; resolves once the new token is in place. */
  refresh(): Promise<void>;
  /** Clears the stored tokens (a 400 on refresh, spec §8). */
  clearToken(): void;
  /** A refresh failed: the user is signed out. */
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
 * The refresh schedule of spec §9 in one small module with no knowledge of OIDC, so that it can be
 * tested with fake timers. Concurrent callers share one renewal.
 */
export function createTokenRefresher(deps: TokenRefreshDeps): TokenRefresher {
  const now = deps.now ?? Date.now;
  let interval: ReturnType<typeof setInterval> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<boolean> | undefined;

  const ignore = () => {};

  function armExpiryTimer(): void {
    clearTimeout(expiryTimer);
    const expiresAt = deps.getExpiresAt();
    if (expiresAt === undefined) return;
    // Timers cannot wait longer than 2^31-1 ms; such a token is renewed by the interval anyway.
    const delay = Math.min(Math.max(0, expiresAt * 1000 - now()), 2_147_483_647);
    expiryTimer = setTimeout(() => void updateToken(EXPIRY_MIN_VALIDITY_SECONDS).catch(ignore), delay);
  }

  function updateToken(minValiditySeconds: number): Promise<boolean> {
    if (inFlight) return inFlight;
    const expiresAt = deps.getExpiresAt();
    const secondsLeft = expiresAt === undefined ? -Infinity : expiresAt - now() / 1000;
    if (minValiditySeconds >= 0 && secondsLeft >= minValiditySeconds) return Promise.resolve(false);

    inFlight = deps
      .refresh()
      .then(
        () => {
          armExpiryTimer();
          return true;
        },
        (error: unknown) => {
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
    interval = undefined;
    expiryTimer = undefined;
  }

  function start(): void {
    stop();
    interval = setInterval(() => void updateToken(MIN_VALIDITY_SECONDS).catch(ignore), REFRESH_INTERVAL_MS);
    armExpiryTimer();
  }

  return { start, stop, updateToken };
}
