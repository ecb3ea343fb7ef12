import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { recordSecurityEvent } from '../security-activity/index.js';
import { endedSessionsOf } from './ended-sessions.js';

/** Which of a customer's sessions end: one, all but one (the caller's own), or all. */
export type SessionSelector = 'all' | { only: string } | { except: string | undefined };

/** Why a session ended (kept with the end and shown in the security activity). */
export type SessionEndReason =
  | 'signed_out'
  | 'signed_out_elsewhere'
  | 'password_changed'
  | 'password_reset'
  | 'token_revoked'
  | 'grant_revoked'
  | 'not_me'
  | 'account_deleted'
  /** Not ended by anyone: its time ran out (purge.ts). */
  | 'expired'
  | (string & {});

interface SessionPayload {
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

const authorizationsOf = (payload: unknown) =>
  Object.values((payload as SessionPayload).authorizations ?? {}).filter(
    (a): a is { sid?: string; grantId?: string } => typeof a === 'object' && a !== null,
  );

/**
 * Ends sessions of a customer (docs/product/security.md#sessions), in one transaction: the identity
 * provider's sessions holding them (their cookie stops working), every grant of those sessions with
 * all its tokens (refresh tokens stop working), the session's device entry; each ended session id
 * is recorded in `ended_sessions` until its last access token has expired, which notifies every
 * instance, so the access tokens in hand are refused within a second everywhere (decision 0031).
 * With 'all' or `except`, grants of the customer that belong to no session (offline access) end too.
 * Finds everything through the account index of the provider's storage (migration 0012), never by
 * reading other customers' rows. Answers the session ids that ended now (not those ended before).
 * `{ only }` ends nothing when the session is not this customer's (unless `ownedBy: 'caller-knows'`:
 * the identity provider's own revocations, which read the account from the revoked token).
 */
export async function endSessions(
  db: Db,
  customerId: string,
  which: SessionSelector,
  reason: SessionEndReason,
  options: { ownedBy?: 'checked' | 'caller-knows' } = {},
): Promise<string[]> {
  const ended = endedSessionsOf(db);
  const keptSid = typeof which === 'object' && 'except' in which ? which.except : undefined;
  const onlySid = typeof which === 'object' && 'only' in which ? which.only : undefined;
  const newlyEnded = await db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('oidc_model_instances')
      .select(['kind', 'id', 'payload', 'grant_id', sql<string | null>`payload->>'sid'`.as('sid')])
      .where('account_id', '=', customerId)
      .where('kind', 'in', ['Session', 'Grant', 'RefreshToken', 'AuthorizationCode'])
      .execute();
    const devices = await tx
      .selectFrom('session_devices')
      .select('sid')
      .where('customer_id', '=', customerId)
      .execute();

    const sessions = rows.filter((row) => row.kind === 'Session');
    const sidsOf = (row: (typeof rows)[number]) =>
      authorizationsOf(row.payload).flatMap((a) => (typeof a.sid === 'string' ? [a.sid] : []));
    const grantsOf = (row: (typeof rows)[number]) =>
      authorizationsOf(row.payload).flatMap((a) => (typeof a.grantId === 'string' ? [a.grantId] : []));

    let endingSessions: typeof rows;
    const sids = new Set<string>();
    const grants = new Set<string>();
    if (onlySid !== undefined) {
      endingSessions = sessions.filter((row) => sidsOf(row).includes(onlySid));
      // A session id of another customer is never ended through this one (only what is found under
      // this account), unless the caller read it from this customer's own token rows.
      const owned =
        options.ownedBy === 'caller-knows' ||
        endingSessions.length > 0 ||
        rows.some((row) => row.sid === onlySid) ||
        devices.some((device) => device.sid === onlySid);
      if (!owned) return [];
      sids.add(onlySid);
      for (const row of rows) if (row.sid === onlySid && row.grant_id) grants.add(row.grant_id);
    } else {
      const kept = keptSid === undefined ? [] : sessions.filter((row) => sidsOf(row).includes(keptSid));
      const keptGrants = new Set(kept.flatMap(grantsOf));
      const keptSids = new Set(kept.flatMap(sidsOf));
      if (keptSid !== undefined) keptSids.add(keptSid);
      endingSessions = sessions.filter((row) => !kept.includes(row));
      for (const row of rows) {
        if (row.sid && !keptSids.has(row.sid)) sids.add(row.sid);
        const grant = row.kind === 'Grant' ? row.id : row.grant_id;
        if (grant && !keptGrants.has(grant) && row.kind !== 'Session') grants.add(grant);
      }
      for (const device of devices) if (!keptSids.has(device.sid)) sids.add(device.sid);
    }
    for (const row of endingSessions) {
      for (const sid of sidsOf(row)) sids.add(sid);
      for (const grant of grantsOf(row)) grants.add(grant);
    }

    if (grants.size) {
      await tx
        .deleteFrom('oidc_model_instances')
        .where('grant_id', 'in', [...grants])
        .execute();
      await tx
        .deleteFrom('oidc_model_instances')
        .where('kind', '=', 'Grant')
        .where('id', 'in', [...grants])
        .execute();
    }
    if (endingSessions.length)
      await tx
        .deleteFrom('oidc_model_instances')
        .where('kind', '=', 'Session')
        .where(
          'id',
          'in',
          endingSessions.map((row) => row.id),
        )
        .execute();
    if (!sids.size) return [];
    await tx
      .deleteFrom('session_devices')
      .where('sid', 'in', [...sids])
      .execute();
    const inserted = await tx
      .insertInto('ended_sessions')
      .values(
        [...sids].map((sid) => ({
          sid,
          customer_id: customerId,
          reason,
          expires_at: new Date(Date.now() + ended.keepMs),
        })),
      )
      .onConflict((oc) => oc.column('sid').doNothing())
      .returning('sid')
      .execute();
    const customerExists = await tx
      .selectFrom('customers')
      .select('id')
      .where('id', '=', customerId)
      .executeTakeFirst();
    if (inserted.length && customerExists)
      await recordSecurityEvent(tx, customerId, 'session_ended', { reason, sessions: inserted.length });
    return inserted.map((row) => row.sid);
  });
  // This instance refuses them before the caller even answers; others hear of it by NOTIFY.
  const until = Date.now() + ended.keepMs;
  for (const sid of newlyEnded) ended.add(sid, until);
  return newlyEnded;
}
