import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/database.js';

/** How often, at most, one process deletes expired rows (on a write). */
const CLEANUP_INTERVAL_MS = 60_000;

/**
 * oidc-provider persistence over ONE table, `oidc_model_instances` (the logto layout): every model
 * (Session, Interaction, Grant, AuthorizationCode, AccessToken, RefreshToken, …) is a row keyed by
 * (kind, id) with its payload as jsonb, plus the columns the provider looks things up by. Expired
 * rows count as absent and are deleted opportunistically; nothing lives in process memory, so any
 * number of instances can share the database.
 */
export function createKyselyAdapterFactory(
  db: Db,
  options: {
    onCleanupError?: (error: unknown) => void;
    now?: () => number;
    /**
     * The provider removed refresh tokens or codes (revocation, refresh-token or code reuse): the
     * sessions they belonged to end, with their access tokens (docs/product/security.md#sessions).
     */
    onTokensRevoked?: (revoked: { sid: string; accountId: string }[], reason: string) => Promise<void>;
  } = {},
): (kind: string) => Adapter {
  const now = options.now ?? Date.now;
  let lastCleanup = 0;

  async function cleanupIfDue(): Promise<void> {
    const at = now();
    if (at - lastCleanup < CLEANUP_INTERVAL_MS) return;
    lastCleanup = at;
    try {
      await db.deleteFrom('oidc_model_instances').where('expires_at', '<', new Date(at)).execute();
    } catch (error) {
      options.onCleanupError?.(error);
    }
  }

  /** Tokens that carry a session id: removing one ends its session (see onTokensRevoked). */
  const sessionTokenKinds = new Set(['RefreshToken', 'AuthorizationCode']);
  const ended = async (rows: { sid: unknown; account_id: string | null }[], reason: string) => {
    const revoked = rows.flatMap((row) =>
      typeof row.sid === 'string' && row.account_id ? [{ sid: row.sid, accountId: row.account_id }] : [],
    );
    if (revoked.length && options.onTokensRevoked) await options.onTokensRevoked(revoked, reason);
  };

  return (kind: string): Adapter => {
    const notExpired = () => new Date(now());

    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string) => {
      const row = await db
        .selectFrom('oidc_model_instances')
        .select(['payload', 'consumed_at'])
        .where('kind', '=', kind)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', notExpired())]))
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = row.payload as unknown as AdapterPayload;
      return row.consumed_at
        ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) }
        : payload;
    };

    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          kind,
          id,
          payload: JSON.stringify(payload),
          grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
          account_id: typeof payload.accountId === 'string' ? payload.accountId : null,
          uid: typeof payload.uid === 'string' ? payload.uid : null,
          user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
          expires_at: typeof expiresIn === 'number' ? new Date(now() + expiresIn * 1000) : null,
          consumed_at: typeof payload.consumed === 'number' ? new Date(payload.consumed * 1000) : null,
        };
        await db
          .insertInto('oidc_model_instances')
          .values(values)
          .onConflict((oc) =>
            oc.columns(['kind', 'id']).doUpdateSet({
              payload: values.payload,
              grant_id: values.grant_id,
              account_id: values.account_id,
              uid: values.uid,
              user_code: values.user_code,
              expires_at: values.expires_at,
              consumed_at: values.consumed_at,
            }),
          )
          .execute();
        await cleanupIfDue();
      },

      find(id) {
        return findWhere('id', id);
      },

      findByUid(uid) {
        return findWhere('uid', uid);
      },

      findByUserCode(userCode) {
        return findWhere('user_code', userCode);
      },

      async consume(id) {
        await db
          .updateTable('oidc_model_instances')
          .set({ consumed_at: new Date(now()) })
          .where('kind', '=', kind)
          .where('id', '=', id)
          .where('consumed_at', 'is', null)
          .execute();
      },

      async destroy(id) {
        const rows = await db
          .deleteFrom('oidc_model_instances')
          .where('kind', '=', kind)
          .where('id', '=', id)
          .returning([sql<unknown>`payload->>'sid'`.as('sid'), 'account_id'])
          .execute();
        if (sessionTokenKinds.has(kind)) await ended(rows, 'token_revoked');
      },

      async revokeByGrantId(grantId) {
        const rows = await db
          .deleteFrom('oidc_model_instances')
          .where('kind', '=', kind)
          .where('grant_id', '=', grantId)
          .returning([sql<unknown>`payload->>'sid'`.as('sid'), 'account_id'])
          .execute();
        if (sessionTokenKinds.has(kind)) await ended(rows, 'grant_revoked');
      },
    };
  };
}
