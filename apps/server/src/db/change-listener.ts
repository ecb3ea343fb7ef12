import pg from 'pg';

/** The listener's application_name in pg_stat_activity (tests end its connection by it). */
export const CHANGE_LISTENER_NAME = 'roadpass-change-listener';

export interface ChangeListenerEvents {
  /** A notice from any connection's committed transaction (this instance's too). */
  notice(payload: string): void;
  /** Listening (again): notices from now on arrive. Those sent while it was not may be lost. */
  listening(): void;
  /** Not listening any more (connection lost or failed); it tries again on its own. */
  lost(error: unknown): void;
}

export interface ChangeListener {
  /**
   * LISTENs on `channel` too, over the same connection. Settles once it listens on it, or after the
   * first connection attempt failed (it goes on trying).
   */
  subscribe(channel: string, events: ChangeListenerEvents): Promise<void>;
  close(): Promise<void>;
}

/** The longest wait between two attempts to listen again. */
const MAX_RETRY_MS = 30_000;
/** The wait between attempts in the first STEADY_FOR_MS of a loss. */
const RETRY_MS = 250;
/** How long after a loss began the waits start doubling. */
const STEADY_FOR_MS = 10_000;

/**
 * How long the listener waits before its next attempt, `lostForMs` after the loss began: every
 * `retryMs` while the loss is younger than `steadyForMs` (a database restart is over by then, and an
 * instance is not ready until it listens again, so each retry's delay is time customers wait: an
 * attempt against a database that is down is one refused connection), then twice the previous wait,
 * up to 30 s.
 */
export function nextRetryDelay(
  lostForMs: number,
  previousMs: number,
  retryMs: number,
  steadyForMs: number,
): number {
  if (lostForMs < steadyForMs) return retryMs;
  return Math.min(Math.max(previousMs, retryMs) * 2, MAX_RETRY_MS);
}

/**
 * One connection of its own (not one of the pool's, and straight to the server: LISTEN does not
 * pass a transaction pooler) that LISTENs on every subscribed channel, reconnecting after a loss:
 * every 250 ms for the first 10 s, then twice as long each time up to 30 s (`nextRetryDelay`). One
 * per instance, whatever the number of channels (deploy/README.md).
 */
export function listenForChanges(url: string): ChangeListener {
  const channels = new Map<string, ChangeListenerEvents>();
  let client: pg.Client | undefined;
  let listening = false;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let wait = RETRY_MS;
  /** When the current loss began (undefined while listening, and before the first attempt). */
  let lostSince: number | undefined;
  let attempt: Promise<void> | undefined;

  const lose = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = undefined;
    listening = false;
    current.removeAllListeners('notification');
    current.end().catch(() => undefined);
    if (closing) return;
    for (const events of channels.values()) events.lost(error);
    const now = Date.now();
    lostSince ??= now;
    wait = nextRetryDelay(now - lostSince, wait, RETRY_MS, STEADY_FOR_MS);
    timer = setTimeout(() => void connect(), wait);
    timer.unref();
  };

  async function connect(): Promise<void> {
    timer = undefined;
    if (closing) return;
    const current = new pg.Client({ connectionString: url, application_name: CHANGE_LISTENER_NAME });
    client = current;
    current.on('notification', (message) => channels.get(message.channel)?.notice(message.payload ?? '*'));
    current.on('error', (error) => lose(current, error));
    current.on('end', () => lose(current, new Error('the change listener connection ended')));
    try {
      await current.connect();
      for (const channel of channels.keys()) await current.query(`LISTEN ${channel}`);
    } catch (error) {
      lose(current, error);
      return;
    }
    if (client !== current) return;
    wait = RETRY_MS;
    lostSince = undefined;
    listening = true;
    for (const events of channels.values()) events.listening();
  }

  return {
    async subscribe(channel, events) {
      channels.set(channel, events);
      if (listening && client) {
        const current = client;
        try {
          await current.query(`LISTEN ${channel}`);
          events.listening();
        } catch (error) {
          lose(current, error);
        }
        return;
      }
      // The first subscriber starts the connection; a later one waits for the attempt under way.
      if (!attempt) attempt = connect();
      await attempt;
    },
    async close() {
      closing = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
