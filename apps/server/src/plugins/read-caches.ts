import fp from 'fastify-plugin';
import type { AppConfig } from '../config.js';
import { changeNotices, parseChangePayload, CHANGE_CHANNEL } from '../db/change-notices.js';
import { listenForChanges, type ChangeListener } from '../db/change-listener.js';
import { databaseSource } from '../db/database.js';
import { InvalidatingCache } from '../lib/invalidating-cache.js';

/** Bound of the caches (decision 0011) besides the customers (READ_CACHE_CUSTOMERS): characters of JSON in all. */
const MAX_JSON_CHARS = 64 * 1024 * 1024;

export interface ReadCaches {
  /** Login status answers (JSON text) by customer id. */
  customers: InvalidatingCache<string>;
  /** What a member's loyalty answers are built from, by customer id (see the loyalty service). */
  loyalty: InvalidatingCache<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readCaches: ReadCaches;
    /** Whether other instances' writes reach this one's caches: the change listener listens (always on PGlite). */
    changeListenerUp(): boolean;
    /**
     * On a PostgreSQL server: this instance's one LISTEN connection, which other plugins subscribe
     * their channels to (the sessions module's ended sessions). Undefined on PGlite.
     */
    changeListener: ChangeListener | undefined;
  }
}

/**
 * The per-instance read caches of the hottest signed-in reads, and what keeps them correct
 * (decision 0011):
 * - this process's writes invalidate synchronously, right after they commit (change-notices.ts);
 * - on a PostgreSQL server, other processes' writes arrive by LISTEN/NOTIFY (the tables' triggers
 *   notify in the writing transaction). The caches serve nothing until the listener listens, and
 *   are emptied and switched off whenever its connection is lost, until it listens again;
 * - embedded PGlite is one process's (the data folder's lock): in-process notices are enough, and
 *   its own NOTIFY reaches the caches too (a write this code forgot to publish).
 * A database this process did not open itself (unknown source) gets no caching.
 */
export default fp<{ config: Pick<AppConfig, 'readCacheCustomers'> }>(
  async (app, { config }) => {
    const source = databaseSource(app.db);
    const jsonLength = (value: unknown) => (typeof value === 'string' ? value.length : 256);
    // READ_CACHE_CUSTOMERS=0: no read caches at all (every read goes to the database).
    const wanted = config.readCacheCustomers > 0;
    const options = { maxKeys: config.readCacheCustomers, maxWeight: MAX_JSON_CHARS, weigh: jsonLength };
    // On PostgreSQL they serve once the change listener listens (below).
    const enabled = wanted && source?.kind === 'pglite';
    const caches: ReadCaches = {
      customers: new InvalidatingCache<string>({ ...options, enabled }),
      loyalty: new InvalidatingCache<unknown>({ ...options, enabled }),
    };
    const all = [caches.customers, caches.loyalty];
    app.decorate('readCaches', caches);
    let listening = source?.kind !== 'postgres';
    app.decorate('changeListenerUp', () => listening);

    const changed = (topic: 'customer' | 'loyalty', customerId: string) => {
      // A customer row concerns their loyalty answers too (a deleted customer is no member).
      if (topic === 'customer') caches.customers.invalidate(customerId);
      caches.loyalty.invalidate(customerId);
    };
    const reset = () => {
      for (const cache of all) cache.clear();
    };
    const onNotice = (payload: string) => {
      const change = parseChangePayload(payload);
      if (change) changed(change.topic, change.customerId);
      else reset();
    };
    const unsubscribe = changeNotices(app.db).subscribe({ changed, reset });
    app.addHook('onClose', async () => {
      unsubscribe();
    });

    if (source?.kind === 'postgres') {
      const log = app.log.child({ module: 'change-listener' });
      const listener = listenForChanges(source.directUrl);
      app.decorate('changeListener', listener);
      app.addHook('onClose', () => listener.close());
      // Start with the caches on when the database is reachable (else they stay off until it is).
      await listener.subscribe(CHANGE_CHANNEL, {
        notice: onNotice,
        listening: () => {
          for (const cache of all) cache.enabled = wanted;
          listening = true;
        },
        lost: (error) => {
          for (const cache of all) cache.enabled = false;
          // Once per loss, not per failed retry.
          if (listening) log.warn({ err: error }, 'change listener lost: read caches off until it is back');
          listening = false;
        },
      });
    } else {
      app.decorate('changeListener', undefined);
    }
    if (source?.kind === 'pglite') {
      const unlisten = await source.pglite.listen(CHANGE_CHANNEL, onNotice);
      app.addHook('onClose', async () => {
        await unlisten().catch(() => undefined);
      });
    }
  },
  { name: 'read-caches', dependencies: ['database'] },
);
