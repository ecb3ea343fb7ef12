const FIRST_RUN_AFTER_MS = 10_000;

export interface ExpiryTimer {
  /** Stops the timer and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` (and once shortly after start) without ever overlapping runs. The
 * timers are unref'd: they never keep the process alive. Every instance may run it: expiry is
 * idempotent and takes each customer's lock.
 */
export function startExpiryTimer(
  run: () => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): ExpiryTimer {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = run()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  };
  // A long interval still gets a first run soon after start, not an hour later.
  const first = intervalMs > FIRST_RUN_AFTER_MS ? setTimeout(tick, FIRST_RUN_AFTER_MS) : undefined;
  const every = setInterval(tick, intervalMs);
  first?.unref();
  every.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
