import type { Db } from '../../db/database.js';

interface AccountPayload {
  accountId?: string;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

/**
 * Ends every identity-provider session of the customer except the one of `keepSid` (the session of
 * the access token in hand): those sessions, their grants and every token of those grants, and any
 * other grant or refresh token of the customer, so other devices' refresh tokens stop working at
 * once. Their access tokens (signed, checked without a lookup) run out within their few minutes.
 * Returns how many sessions ended.
 */
export async function endOtherSessions(
  db: Db,
  customerId: string,
  keepSid: string | undefined,
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('oidc_model_instances')
      .select(['kind', 'id', 'payload', 'grant_id'])
      .where('kind', 'in', ['Session', 'Grant', 'RefreshToken', 'AccessToken', 'AuthorizationCode'])
      .execute();
    const own = rows.filter((row) => (row.payload as AccountPayload).accountId === customerId);
    const kept = own.find(
      (row) =>
        row.kind === 'Session' &&
        keepSid !== undefined &&
        Object.values((row.payload as AccountPayload).authorizations ?? {}).some((a) => a.sid === keepSid),
    );
    const keptGrants = new Set(
      Object.values((kept?.payload as AccountPayload | undefined)?.authorizations ?? {})
        .map((a) => a.grantId)
        .filter((id): id is string => typeof id === 'string'),
    );
    const ending = own.filter((row) =>
      row.kind === 'Session'
        ? row.id !== kept?.id
        : row.kind === 'Grant'
          ? !keptGrants.has(row.id)
          : !row.grant_id || !keptGrants.has(row.grant_id),
    );
    const endedGrants = ending.filter((row) => row.kind === 'Grant').map((row) => row.id);
    if (endedGrants.length)
      await tx.deleteFrom('oidc_model_instances').where('grant_id', 'in', endedGrants).execute();
    for (const row of ending)
      await tx
        .deleteFrom('oidc_model_instances')
        .where('kind', '=', row.kind)
        .where('id', '=', row.id)
        .execute();
    return ending.filter((row) => row.kind === 'Session').length;
  });
}
