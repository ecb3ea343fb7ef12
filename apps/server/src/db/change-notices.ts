import type { Db } from './database.js';

/**
 * What a change concerns, by customer id: `customer` their row (login status), `loyalty` what their
 * loyalty answers are built from (core consent, account, ledger).
 */
export type ChangeTopic = 'customer' | 'loyalty';

/** The PostgreSQL channel the tables' triggers notify on commit (migration 0009). */
export const CHANGE_CHANNEL = 'roadpass_changes';

export interface ChangeSubscriber {
  changed(topic: ChangeTopic, customerId: string): void;
  /** Anything may have changed (a table emptied, notices lost). */
  reset(): void;
}

/**
 * A notice's payload: `topic:customer-id`, or `*` for "anything". Answers undefined for a reset and
 * null for a payload this version does not know (treated as a reset by the listener: safe).
 */
export function parseChangePayload(payload: string): { topic: ChangeTopic; customerId: string } | undefined {
  const colon = payload.indexOf(':');
  const topic = payload.slice(0, colon);
  if (colon < 0 || (topic !== 'customer' && topic !== 'loyalty')) return undefined;
  return { topic, customerId: payload.slice(colon + 1).toLowerCase() };
}

/**
 * In-process change notices of one database: the code that writes publishes here right after its
 * transaction commits, synchronously, so this process's caches drop what changed before the writer
 * even answers. (Other processes learn of it by LISTEN/NOTIFY: see the read-caches plugin.)
 */
export class ChangeNotices {
  private readonly subscribers = new Set<ChangeSubscriber>();

  subscribe(subscriber: ChangeSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  publish(topic: ChangeTopic, customerIds: string | readonly string[]): void {
    const ids = typeof customerIds === 'string' ? [customerIds] : customerIds;
    for (const subscriber of this.subscribers) {
      for (const id of ids) subscriber.changed(topic, id.toLowerCase());
    }
  }

  reset(): void {
    for (const subscriber of this.subscribers) subscriber.reset();
  }
}

const registry = new WeakMap<Db, ChangeNotices>();

/** The change notices of a database (the root Db, not a transaction). */
export function changeNotices(db: Db): ChangeNotices {
  let notices = registry.get(db);
  if (!notices) {
    notices = new ChangeNotices();
    registry.set(db, notices);
  }
  return notices;
}
