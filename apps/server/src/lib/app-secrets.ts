import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * Returns the named secret, creating it on first use. Insert-then-select makes concurrent instances
 * on one database agree on a single value.
 */
export async function getOrCreateSecret(
  db: Db,
  name: string,
  create: () => string | Promise<string>,
): Promise<string> {
  const existing = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('app_secrets')
    .values({ name, value: await create() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

export const randomSecret = (bytes = 32) => randomBytes(bytes).toString('base64url');
