import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MIN_SECONDS_BETWEEN_RENEWALS,
  REFRESH_INTERVAL_MS,
  RETRY_FIRST_DELAY_MS,
  createTokenRefresher,
  type TokenRefreshDeps,
} from './token-refresh';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A fake token source: refresh() hands out a token valid for `lifetime` seconds from now. */
function setup(options: { expiresIn: number; lifetime?: number; refresh?: TokenRefreshDeps['refresh'] }) {
  let expiresAt: number | undefined = seconds(T0) + options.expiresIn;
  const refresh = vi.fn(
    options.refresh ??
      (async () => {
        expiresAt = seconds(Date.now()) + (options.lifetime ?? 300);
      }),
  );
  const clearToken = vi.fn(() => {
    expiresAt = undefined;
  });
  const onRefreshFailed = vi.fn();
  const refresher = createTokenRefresher({
    getExpiresAt: () => expiresAt,
    refresh,
    clearToken,
    onRefreshFailed,
  });
  return { refresher, refresh, clearToken, onRefreshFailed, expiresAt: () => expiresAt };
}

describe('token refresh schedule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every 250 000 ms and renews only when less than 70 s are left', async () => {
    // Valid for 600 s: the check at 250 s leaves 350 s, the check at 500 s leaves 100 s.
    const { refresher, refresh } = setup({ expiresIn: 600, lifetime: 600 });
    refresher.start();

    await vi.advanceTimersByTimeAsync(250_000);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(250_000);
    expect(refresh).not.toHaveBeenCalled();

    refresher.stop();
  });

  it('renews at an interval check when the token expires within 70 s', async () => {
    const { refresher, refresh } = setup({ expiresIn: 300, lifetime: 3600 });
    refresher.start();

    expect(REFRESH_INTERVAL_MS).toBe(250_000);
    await vi.advanceTimersByTimeAsync(249_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    // 50 s left < 70 s
    expect(refresh).toHaveBeenCalledOnce();

    refresher.stop();
  });

  it('renews when the token expires (timer at exp, minimum validity 5 s)', async () => {
    const { refresher, refresh, expiresAt } = setup({ expiresIn: 100, lifetime: 100 });
    refresher.start();

    await vi.advanceTimersByTimeAsync(99_999);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledOnce();

    // The expiry timer is re-armed for the new token.
    expect(expiresAt()).toBe(seconds(T0) + 200);
    await vi.advanceTimersByTimeAsync(100_000);
    expect(refresh).toHaveBeenCalledTimes(2);

    refresher.stop();
  });

  it('updateToken(minValidity) renews only below the minimum validity; -1 forces', async () => {
    const { refresher, refresh } = setup({ expiresIn: 60 });

    await expect(refresher.updateToken(5)).resolves.toBe(false);
    expect(refresh).not.toHaveBeenCalled();
    await expect(refresher.updateToken(70)).resolves.toBe(true);
    expect(refresh).toHaveBeenCalledOnce();
    await expect(refresher.updateToken(-1)).resolves.toBe(true);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('shares one renewal between concurrent callers', async () => {
    const { refresher, refresh } = setup({ expiresIn: 0 });
    const [a, b] = await Promise.all([refresher.updateToken(5), refresher.updateToken(70)]);
    expect([a, b]).toEqual([true, true]);
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('signs the user out when the identity provider refuses the renewal, and stops the schedule', async () => {
    const refused = new Error('Unauthorized (401)');
    const { refresher, refresh, onRefreshFailed, clearToken } = setup({
      expiresIn: 10,
      refresh: () => Promise.reject(refused),
    });
    refresher.start();

    await vi.advanceTimersByTimeAsync(10_000);

    expect(refresh).toHaveBeenCalledOnce();
    expect(onRefreshFailed).toHaveBeenCalledWith(refused);
    expect(clearToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('keeps the user signed in when a renewal gets no answer, and retries with back-off', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let online = false;
    let expiresAt = seconds(T0) + 10;
    const refresh = vi.fn(async () => {
      if (!online) throw new TypeError('Failed to fetch');
      expiresAt = seconds(Date.now()) + 300;
    });
    const onRefreshFailed = vi.fn();
    const refresher = createTokenRefresher({
      getExpiresAt: () => expiresAt,
      refresh,
      clearToken: vi.fn(),
      onRefreshFailed,
    });
    refresher.start();

    // Expiry at 10 s, then retries 10 s, 20 s, 40 s, 80 s after each failure.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_DELAY_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(39_999);
    expect(refresh).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(4);
    expect(onRefreshFailed).not.toHaveBeenCalled();

    // The network returns: the next retry renews, and the schedule is back to normal.
    online = true;
    await vi.advanceTimersByTimeAsync(80_000);
    expect(refresh).toHaveBeenCalledTimes(5);
    expect(expiresAt).toBe(seconds(Date.now()) + 300);
    await vi.advanceTimersByTimeAsync(200_000);
    expect(refresh).toHaveBeenCalledTimes(5);
    refresher.stop();
  });

  it('never waits longer than 5 minutes between retries', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { refresher, refresh } = setup({
      expiresIn: 0,
      refresh: () => Promise.reject(new Error('Service Unavailable (503)')),
    });
    refresher.start();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    const callsInTheFirstHour = refresh.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    // 10+20+40+80+160 s, then every 300 s (plus the 250 s interval checks): bounded both ways.
    expect(callsInTheFirstHour).toBeGreaterThanOrEqual(15);
    expect(callsInTheFirstHour).toBeLessThanOrEqual(30);
    expect(refresh.mock.calls.length - callsInTheFirstHour).toBeGreaterThanOrEqual(12);
    expect(refresh.mock.calls.length - callsInTheFirstHour).toBeLessThanOrEqual(27);
    refresher.stop();
  });

  it('does not spin when every new token already looks expired', async () => {
    // A token source whose tokens always look expired (the loop of issue 7 with a clock 5 min fast).
    const { refresher, refresh } = setup({ expiresIn: -300, lifetime: -300 });
    refresher.start();

    await vi.advanceTimersByTimeAsync(35_000);

    expect(refresh.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(refresh.mock.calls.length).toBeLessThanOrEqual(1 + 35 / MIN_SECONDS_BETWEEN_RENEWALS);
    refresher.stop();
  });

  it('clears the token on a 400 from the token endpoint (OAuth error body)', async () => {
    const invalidGrant = Object.assign(new Error('Token is not active'), {
      name: 'ErrorResponse',
      error: 'invalid_grant',
    });
    const { refresher, onRefreshFailed, clearToken } = setup({
      expiresIn: 0,
      refresh: () => Promise.reject(invalidGrant),
    });

    await expect(refresher.updateToken(5)).rejects.toBe(invalidGrant);

    expect(clearToken).toHaveBeenCalledOnce();
    expect(onRefreshFailed).toHaveBeenCalledWith(invalidGrant);
  });

  it('clears the token on a bare 400 from the token endpoint', async () => {
    const { refresher, clearToken } = setup({
      expiresIn: 0,
      refresh: () => Promise.reject(new Error('Bad Request (400)')),
    });

    await expect(refresher.updateToken(5)).rejects.toThrow('(400)');
    expect(clearToken).toHaveBeenCalledOnce();
  });
});
