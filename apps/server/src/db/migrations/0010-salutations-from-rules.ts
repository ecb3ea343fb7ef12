import { sql, type Kysely } from 'kysely';

/**
 * Which salutations a customer may choose is the served account rules' business (a listMatch rule in
 * content/account-rules, checked by the rule interpreter before anything is stored), so a new one is a
 * content change: the column no longer holds its own list, and takes the 16 characters the API does (SALUTATION_MAX_LENGTH).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table customers drop constraint customers_salutation`.execute(db);
  await sql`alter table customers alter column salutation type varchar(16)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table customers alter column salutation type varchar(4)`.execute(db);
  await sql`alter table customers add constraint customers_salutation check (salutation in ('HERR', 'FRAU'))`.execute(
    db,
  );
}
