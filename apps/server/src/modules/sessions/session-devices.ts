import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { ActiveSession } from '@roadpass/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { batchArray } from '../../db/batch-array.js';
import type { SessionDeviceTable } from '../../db/schema.js';
import { batchPerTurn } from '../../lib/batch-per-turn.js';
import { describeDevice, shortenAddress, type PlaceFinder } from '../../lib/device-description.js';

/** Last-active times are written at most this often per session (docs/product/security.md#sessions). */
export const LAST_ACTIVE_THROTTLE_MS = 60_000;

/** Pauses before the second and third try of a device entry's write (see recordSessionDevice). */
const DEVICE_WRITE_RETRY_MS = [50, 250];

/**
 * Records a session's device when its tokens are first issued (sign-in) and its activity when they
 * are renewed: user agent and address of the first, last active of every later call. The write is an
 * upsert, so it is tried again after a failure (a connection lost, a deadlock, a pool shut while an
 * instance drains): a session without its entry would work yet be missing from the customer's list
 * of sessions, where they see and end access (docs/product/security.md#sessions). Throws the last
 * error when no try succeeded; the sign-in then fails instead of issuing such a session's tokens.
 */
export async function recordSessionDevice(
  db: Db,
  entry: { sid: string; customerId: string; userAgent: string; address: string; expiresAt: Date },
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await db
        .insertInto('session_devices')
        .values({
          sid: entry.sid,
          customer_id: entry.customerId,
          user_agent: entry.userAgent.slice(0, 512),
          address: entry.address.slice(0, 64),
          expires_at: entry.expiresAt,
        })
        .onConflict((oc) =>
          oc.column('sid').doUpdateSet({ last_active_at: new Date(), expires_at: entry.expiresAt }),
        )
        .execute();
      return;
    } catch (error) {
      const pause = DEVICE_WRITE_RETRY_MS[attempt];
      if (pause === undefined) throw error;
      await sleep(pause);
    }
  }
}

/** Last-active times noted meanwhile are written together this often (one statement for all). */
const LAST_ACTIVE_FLUSH_MS = 1_000;
/** At most this many sessions per statement. */
const LAST_ACTIVE_BATCH = 5_000;

/** Notes API use of a session (see lastActiveRecorder). */
export interface LastActiveRecorder {
  (sid: string): void;
  /** Writes what was noted and not written yet (at close; tests). */
  flush(): Promise<void>;
}

/**
 * Notes API use of a session, throttled in memory: at most one last-active time per session a minute
 * on this instance, never awaited by the request. The times noted within LAST_ACTIVE_FLUSH_MS go to
 * the database in one statement, committed without waiting for the disk (`synchronous_commit = off`:
 * a crash loses at most the last second's times, which the next call notes again). Writing each on
 * its own cost a customer's first call of a session more than the rest of it did (issue 21 §5).
 */
export function lastActiveRecorder(
  db: Db,
  onError: (error: unknown) => void,
  now = Date.now,
): LastActiveRecorder {
  const written = new Map<string, number>();
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function write(batch: Map<string, number>): Promise<void> {
    // In sid order, so that instances writing the same sessions never wait on each other in a cycle.
    const entries = [...batch].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (let i = 0; i < entries.length; i += LAST_ACTIVE_BATCH) {
      const part = entries.slice(i, i + LAST_ACTIVE_BATCH);
      await db.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = off`.execute(trx);
        await sql`
          update session_devices d set last_active_at = v.at
          from unnest(${part.map(([sid]) => sid)}::text[], ${part.map(([, at]) => new Date(at).toISOString())}::timestamptz[]) as v(sid, at)
          where d.sid = v.sid and d.last_active_at < v.at`.execute(trx);
      });
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.size > 0) {
      const batch = pending;
      pending = new Map();
      writing = writing.then(() => write(batch)).catch(onError);
    }
    return writing;
  }

  const used = (sid: string): void => {
    const at = now();
    const last = written.get(sid);
    if (last !== undefined && at - last < LAST_ACTIVE_THROTTLE_MS) return;
    if (written.size > 100_000) written.clear();
    written.set(sid, at);
    pending.set(sid, at);
    timer ??= setTimeout(() => void flush(), LAST_ACTIVE_FLUSH_MS).unref();
  };
  return Object.assign(used, { flush });
}

/**
 * The customer's active sessions, most recently active first (docs/product/security.md#sessions):
 * the sessions lists of one turn of the event loop read together, in one statement (decisions 0054, 0055).
 */
export function sessionLister(db: Db, places: () => PlaceFinder) {
  const rowsOf = batchPerTurn<string, Selectable<SessionDeviceTable>[]>(async (customerIds) => {
    const byCustomer = new Map(customerIds.map((id) => [id, [] as Selectable<SessionDeviceTable>[]]));
    const rows = await db
      .selectFrom('session_devices')
      // Named columns, not `*`: a statement with `*` is never prepared (database.ts), and the
      // batch's array planned once (decision 0055).
      .select(['sid', 'customer_id', 'user_agent', 'address', 'signed_in_at', 'last_active_at', 'expires_at'])
      .where(sql<boolean>`customer_id = any(${batchArray([...byCustomer.keys()], 'uuid')})`)
      .where('expires_at', '>', new Date())
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('ended_sessions')
              .select('sid')
              .whereRef('ended_sessions.sid', '=', 'session_devices.sid'),
          ),
        ),
      )
      .orderBy('last_active_at', 'desc')
      .execute();
    for (const row of rows) byCustomer.get(row.customer_id)?.push(row);
    return customerIds.map((id) => byCustomer.get(id)!);
  });

  return async (
    customerId: string,
    currentSid: string | undefined,
    language: string,
  ): Promise<ActiveSession[]> =>
    (await rowsOf(customerId.toLowerCase())).map((row) => {
      const device = describeDevice(row.user_agent);
      return {
        id: row.sid,
        client: device.client,
        system: device.system,
        kind: device.kind,
        place: places().placeOf(row.address, language),
        network: shortenAddress(row.address),
        signedInAt: row.signed_in_at.toISOString(),
        lastActiveAt: row.last_active_at.toISOString(),
        current: row.sid === currentSid,
      };
    });
}
