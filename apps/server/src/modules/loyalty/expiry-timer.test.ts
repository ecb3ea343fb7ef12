import { afterEach, describe, expect, it, vi } from 'vitest';
import { startExpiryTimer } from './expiry-timer.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('expiry timer', () => {
  it('runs soon after start, then at every interval, never two runs at once', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let finish: () => void = () => undefined;
    const timer = startExpiryTimer(
      () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      60_000,
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(1);
    // The first run is still going: the interval's tick is skipped.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    finish();
    await timer.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(2);
  });

  it('reports a failed run and keeps going', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const timer = startExpiryTimer(
      async () => {
        runs += 1;
        throw new Error('database away');
      },
      1000,
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(3);
    expect(errors).toHaveLength(3);
    await timer.stop();
  });

  it('waits for a run in progress when stopped', async () => {
    vi.useFakeTimers();
    let done = false;
    const timer = startExpiryTimer(
      () => new Promise<void>((resolve) => setTimeout(() => ((done = true), resolve()), 5000)),
      1000,
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(1000);
    const stopped = timer.stop();
    await vi.advanceTimersByTimeAsync(5000);
    await stopped;
    expect(done).toBe(true);
  });
});
