import pg from 'pg';
import { CHANGE_CHANNEL } from './change-notices.js';

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

/**
 * LISTEN on the change channel over a connection of its own (not one of the pool's), reconnecting
 * after a loss: first after `retryMs`, then twice as long each time up to 30 s.
 */
export function listenForChanges(
  url: string,
  events: ChangeListenerEvents,
  retryMs = 500,
  channel: string = CHANGE_CHANNEL,
): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let wait = retryMs;

  const lose = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = undefined;
    current.removeAllListeners('notification');
    current.end().catch(() => undefined);
    if (closing) return;
    events.lost(error);
    timer = setTimeout(connect, wait);
    timer.unref();
    wait = Math.min(wait * 2, 30_000);
  };

  async function connect(): Promise<void> {
    timer = undefined;
    if (closing) return;
    const current = new pg.Client({ connectionString: url, application_name: CHANGE_LISTENER_NAME });
    client = current;
    current.on('notification', (message) => events.notice(message.payload ?? '*'));
    current.on('error', (error) => lose(current, error));
    current.on('end', () => lose(current, new Error('the change listener connection ended')));
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
    } catch (error) {
      lose(current, error);
      return;
    }
    if (client !== current) return;
    wait = retryMs;
    events.listening();
  }

  return {
    /** Settles once the first attempt has listened or failed (it goes on trying after a failure). */
    ready: connect(),
    async close() {
      closing = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
