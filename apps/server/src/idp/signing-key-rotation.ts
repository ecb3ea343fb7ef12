import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import {
  loadSigningKeys,
  newSigningKey,
  parseJwks,
  SIGNING_KEYS_SECRET,
  type StoredJwks,
} from './provider-keys.js';

/**
 * How long a new key is published before it signs: relying parties that cached the key set (an
 * hour, as the realm's metadata allows) have seen it by then, and every instance was rolled.
 */
export const PUBLISH_BEFORE_SIGNING_SECONDS = 3600;

/**
 * How long the previous key keeps verifying after the new one signs: the longest life of anything it
 * signed that someone may still present — access and ID tokens, and an ID token as `id_token_hint` at
 * sign-out for as long as its session lasts. (Refresh tokens are signed with their own HMAC key.)
 */
export function keepRetiredKeySeconds(config: AppConfig): number {
  return Math.max(config.accessTokenTtlSeconds, config.refreshTokenTtlSeconds, config.sessionTtlSeconds);
}

export type KeyRole = 'signs' | 'published, does not sign yet' | 'verifies only (retired)' | 'verifies only';

export interface KeyRotationStatus {
  keys: { kid: string; role: KeyRole }[];
  /** What `rotate` would do now, or when it may. */
  next: { step: 'stage' | 'activate' | 'remove'; kid?: string; dueAt: Date };
}

/** A step that is not due yet: the message says which and when. */
export class RotationNotDue extends Error {
  constructor(
    message: string,
    readonly dueAt: Date,
  ) {
    super(message);
    this.name = 'RotationNotDue';
  }
}

function statusOf(stored: StoredJwks, config: AppConfig): KeyRotationStatus {
  const { staged, retired } = stored.rotation ?? {};
  const keys = stored.keys.map((key, i) => ({
    kid: key.kid ?? '(no kid)',
    role: (i === 0
      ? 'signs'
      : key.kid === staged?.kid
        ? 'published, does not sign yet'
        : key.kid === retired?.kid
          ? 'verifies only (retired)'
          : 'verifies only') as KeyRole,
  }));
  const next: KeyRotationStatus['next'] = retired
    ? {
        step: 'remove',
        kid: retired.kid,
        dueAt: new Date(Date.parse(retired.at) + keepRetiredKeySeconds(config) * 1000),
      }
    : staged
      ? {
          step: 'activate',
          kid: staged.kid,
          dueAt: new Date(Date.parse(staged.at) + PUBLISH_BEFORE_SIGNING_SECONDS * 1000),
        }
      : { step: 'stage', dueAt: new Date(0) };
  return { keys, next };
}

/** The signing keys and where a rotation stands. */
export async function signingKeyStatus(db: Db, config: AppConfig): Promise<KeyRotationStatus> {
  await loadSigningKeys(db);
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', SIGNING_KEYS_SECRET)
    .executeTakeFirstOrThrow();
  return statusOf(parseJwks(row.value), config);
}

export interface RotationStep {
  step: 'stage' | 'activate' | 'remove';
  kid: string;
  status: KeyRotationStatus;
}

/**
 * The next step of a signing-key rotation with an overlap (issue 21 §6; docs/operations.md#signing-keys),
 * each followed by a rolling restart, as instances read the keys when they start:
 *
 * 1. stage: a new key goes to the end of the set: published at /certs and accepted, not signing;
 * 2. activate, at least PUBLISH_BEFORE_SIGNING_SECONDS later: it moves to the front and signs; the
 *    previous signing key stays, retired, to verify what it signed;
 * 3. remove, once keepRetiredKeySeconds have passed since: the retired key leaves the set.
 *
 * A step that is not due throws RotationNotDue and changes nothing. One step at a time, in a
 * transaction holding the row, so two operators cannot both stage a key.
 */
export async function rotateSigningKeys(
  db: Db,
  config: AppConfig,
  now: Date = new Date(),
): Promise<RotationStep> {
  await loadSigningKeys(db);
  const fresh = await newSigningKey();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', SIGNING_KEYS_SECRET)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const stored = parseJwks(row.value);
    const { next } = statusOf(stored, config);
    if (now < next.dueAt) {
      const what =
        next.step === 'remove'
          ? `The retired key ${next.kid} still verifies tokens it signed`
          : `The new key ${next.kid} is published but should not sign yet (relying parties may still cache the old key set)`;
      throw new RotationNotDue(
        `${what}: the next step (${next.step}) is due at ${next.dueAt.toISOString()}`,
        next.dueAt,
      );
    }
    const rotation = { ...stored.rotation };
    let keys = stored.keys;
    let kid: string;
    if (next.step === 'stage') {
      kid = fresh.kid!;
      keys = [...keys, fresh];
      rotation.staged = { kid, at: now.toISOString() };
    } else if (next.step === 'activate') {
      kid = next.kid!;
      const key = keys.find((k) => k.kid === kid);
      if (!key) throw new Error(`The staged key ${kid} is not in the key set`);
      const signing = keys[0]!;
      keys = [key, ...keys.filter((k) => k !== key)];
      delete rotation.staged;
      rotation.retired = { kid: signing.kid!, at: now.toISOString() };
    } else {
      kid = next.kid!;
      keys = keys.filter((k) => k.kid !== kid);
      delete rotation.retired;
    }
    const updated: StoredJwks = { keys, ...(Object.keys(rotation).length > 0 ? { rotation } : {}) };
    await trx
      .updateTable('app_secrets')
      .set({ value: JSON.stringify(updated) })
      .where('name', '=', SIGNING_KEYS_SECRET)
      .execute();
    return { step: next.step, kid, status: statusOf(updated, config) };
  });
}
