import { createHash } from 'node:crypto';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { randomSecret } from '../lib/app-secrets.js';
import { COOKIE_KEYS_SECRET, loadCookieKeys } from './provider-keys.js';
import { RotationNotDue } from './signing-key-rotation.js';

/**
 * Where a rotation of the cookie keys stands, in a row of its own: `oidc-cookie-keys` stays the plain
 * JSON array of keys every instance reads when it starts (loadCookieKeys), so instances of the
 * previous release read it unchanged during an upgrade (docs/operations.md#upgrades-with-migrations).
 */
export const COOKIE_KEY_ROTATION_SECRET = 'oidc-cookie-keys-rotation';

/**
 * The least time between staging a cookie key and letting it sign: a rolling restart of the fleet,
 * after which every instance accepts it. An instance that has not restarted would not recognise a
 * cookie signed with the new key: its visitor would appear signed out there. No cache outside the
 * fleet is involved, unlike signing keys.
 */
export const ACCEPT_BEFORE_SIGNING_SECONDS = 600;

/**
 * How long the previous cookie key keeps verifying after the new one signs: the life of the longest
 * cookie it signed, the provider's session cookie (SESSION_TTL_SECONDS). The interaction cookies
 * live for minutes.
 */
export const keepRetiredCookieKeySeconds = (config: AppConfig): number => config.sessionTtlSeconds;

interface CookieKeyRotationState {
  staged?: { key: string; at: string };
  retired?: { key: string; at: string };
}

/**
 * A cookie key as the operator sees it: the start of its SHA-256, never the key itself (the command's
 * output may end up in a ticket or a terminal log).
 */
export const cookieKeyId = (key: string): string =>
  createHash('sha256').update(key).digest('hex').slice(0, 12);

export type CookieKeyRole =
  'signs' | 'accepted, does not sign yet' | 'verifies only (retired)' | 'verifies only';

export interface CookieKeyStatus {
  keys: { id: string; role: CookieKeyRole }[];
  /** What `rotate-cookies` would do now, or when it may. */
  next: { step: 'stage' | 'activate' | 'remove'; id?: string; dueAt: Date };
}

function statusOf(
  keys: readonly string[],
  state: CookieKeyRotationState,
  config: AppConfig,
): CookieKeyStatus {
  const { staged, retired } = state;
  const listed = keys.map((key, i) => {
    const id = cookieKeyId(key);
    const role: CookieKeyRole =
      i === 0
        ? 'signs'
        : id === staged?.key
          ? 'accepted, does not sign yet'
          : id === retired?.key
            ? 'verifies only (retired)'
            : 'verifies only';
    return { id, role };
  });
  const next: CookieKeyStatus['next'] = retired
    ? {
        step: 'remove',
        id: retired.key,
        dueAt: new Date(Date.parse(retired.at) + keepRetiredCookieKeySeconds(config) * 1000),
      }
    : staged
      ? {
          step: 'activate',
          id: staged.key,
          dueAt: new Date(Date.parse(staged.at) + ACCEPT_BEFORE_SIGNING_SECONDS * 1000),
        }
      : { step: 'stage', dueAt: new Date(0) };
  return { keys: listed, next };
}

const parseState = (value: string | undefined): CookieKeyRotationState =>
  value === undefined ? {} : (JSON.parse(value) as CookieKeyRotationState);

/** The cookie keys (as ids) and where a rotation stands. */
export async function cookieKeyStatus(db: Db, config: AppConfig): Promise<CookieKeyStatus> {
  const keys = await loadCookieKeys(db);
  const state = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', COOKIE_KEY_ROTATION_SECRET)
    .executeTakeFirst();
  return statusOf(keys, parseState(state?.value), config);
}

export interface CookieKeyRotationStep {
  step: 'stage' | 'activate' | 'remove';
  id: string;
  status: CookieKeyStatus;
}

/**
 * The next step of a cookie-key rotation with an overlap (docs/operations.md#cookie-keys), each
 * followed by a rolling restart, as instances read the keys when they start. The keys sign the
 * identity provider's cookies in Keygrip order: the first signs, all verify.
 *
 * 1. stage: a new key goes to the end: accepted by every instance after the roll, not signing;
 * 2. activate, at least ACCEPT_BEFORE_SIGNING_SECONDS later: it moves to the front and signs; the
 *    previous first key stays, retired, so cookies it signed still verify;
 * 3. remove, once keepRetiredCookieKeySeconds have passed since: the retired key leaves the set.
 *
 * A step that is not due throws RotationNotDue and changes nothing. One step at a time, in a
 * transaction holding the keys' row, so two operators cannot both stage a key.
 */
export async function rotateCookieKeys(
  db: Db,
  config: AppConfig,
  now: Date = new Date(),
): Promise<CookieKeyRotationStep> {
  await loadCookieKeys(db);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', COOKIE_KEYS_SECRET)
      .forUpdate()
      .executeTakeFirstOrThrow();
    let keys = JSON.parse(row.value) as string[];
    const stateRow = await trx
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', COOKIE_KEY_ROTATION_SECRET)
      .executeTakeFirst();
    const state = parseState(stateRow?.value);
    const { next } = statusOf(keys, state, config);
    if (now < next.dueAt) {
      const what =
        next.step === 'remove'
          ? `The retired cookie key ${next.id} still verifies cookies it signed`
          : `The new cookie key ${next.id} is staged but should not sign yet (roll every instance first)`;
      throw new RotationNotDue(
        `${what}: the next step (${next.step}) is due at ${next.dueAt.toISOString()}`,
        next.dueAt,
      );
    }
    const byId = (id: string | undefined) => keys.find((key) => cookieKeyId(key) === id);
    let id: string;
    if (next.step === 'stage') {
      const fresh = randomSecret(32);
      id = cookieKeyId(fresh);
      keys = [...keys, fresh];
      state.staged = { key: id, at: now.toISOString() };
    } else if (next.step === 'activate') {
      id = next.id!;
      const key = byId(id);
      if (!key) throw new Error(`The staged cookie key ${id} is not in ${COOKIE_KEYS_SECRET}`);
      const signing = keys[0]!;
      keys = [key, ...keys.filter((k) => k !== key)];
      delete state.staged;
      state.retired = { key: cookieKeyId(signing), at: now.toISOString() };
    } else {
      id = next.id!;
      keys = keys.filter((k) => cookieKeyId(k) !== id);
      delete state.retired;
    }
    await trx
      .updateTable('app_secrets')
      .set({ value: JSON.stringify(keys) })
      .where('name', '=', COOKIE_KEYS_SECRET)
      .execute();
    await trx
      .insertInto('app_secrets')
      .values({ name: COOKIE_KEY_ROTATION_SECRET, value: JSON.stringify(state) })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: JSON.stringify(state) }))
      .execute();
    return { step: next.step, id, status: statusOf(keys, state, config) };
  });
}
