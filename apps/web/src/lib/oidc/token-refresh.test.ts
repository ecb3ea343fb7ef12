import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_INTERVAL_MS, createTokenRefresher, type TokenRefreshDeps } from './token-refresh';

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

  it('signs the user out when renewal fails, and stops the schedule', async () => {
    const failure = new Error('Network timed out');
    const { refresher, refresh, onRefreshFailed, clearToken } = setup({
      expiresIn: 10,
      refresh: () => Promise.reject(failure),
    });
    refresher.start();

    await vi.advanceTimersByTimeAsync(10_000);

    expect(refresh).toHaveBeenCalledOnce();
    expect(onRefreshFailed).toHaveBeenCalledWith(failure);
    expect(clearToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(REFRESH_INTERVAL_MS);
    expect(refresh).toHaveBeenCalledOnce();
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
