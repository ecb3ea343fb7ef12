import type { ActiveSession } from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { describeDevice, shortenAddress, type PlaceFinder } from '../../lib/device-description.js';

/** Last-active times are written at most this often per session (docs/product/security.md#sessions). */
export const LAST_ACTIVE_THROTTLE_MS = 60_000;

/**
 * Records a session's device when its tokens are first issued (sign-in) and its activity when they
 * are renewed: user agent and address of the first, last active of every later call.
 */
export async function recordSessionDevice(
  db: Db,
  entry: { sid: string; customerId: string; userAgent: string; address: string; expiresAt: Date },
): Promise<void> {
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
}

/**
 * Notes API use of a session, throttled in memory: at most one write per session a minute on this
 * instance, never awaited by the request.
 */
export function lastActiveRecorder(db: Db, onError: (error: unknown) => void, now = Date.now) {
  const written = new Map<string, number>();
  return (sid: string): void => {
    const at = now();
    const last = written.get(sid);
    if (last !== undefined && at - last < LAST_ACTIVE_THROTTLE_MS) return;
    if (written.size > 100_000) written.clear();
    written.set(sid, at);
    db.updateTable('session_devices')
      .set({ last_active_at: new Date(at) })
      .where('sid', '=', sid)
      .execute()
      .catch(onError);
  };
}

/** The customer's active sessions, most recently active first. */
export async function listSessions(
  db: Db,
  customerId: string,
  currentSid: string | undefined,
  places: PlaceFinder,
  language: string,
): Promise<ActiveSession[]> {
  const rows = await db
    .selectFrom('session_devices')
    .selectAll()
    .where('customer_id', '=', customerId)
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
  return rows.map((row) => {
    const device = describeDevice(row.user_agent);
    return {
      id: row.sid,
      client: device.client,
      system: device.system,
      kind: device.kind,
      place: places.placeOf(row.address, language),
      network: shortenAddress(row.address),
      signedInAt: row.signed_in_at.toISOString(),
      lastActiveAt: row.last_active_at.toISOString(),
      current: row.sid === currentSid,
    };
  });
}
