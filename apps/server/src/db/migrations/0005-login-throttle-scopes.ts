import { sql, type Kysely } from 'kysely';

/**
 * Sign-in throttling per account for unknown clients, per known device and per address (decision
 * 0010). Failures counted per e-mail for everyone (scope 'email') are gone: they let anyone lock any
 * customer out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from login_attempts where scope = 'email'`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_scope`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope check (scope in ('account', 'device', 'ip'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from login_attempts where scope <> 'ip'`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_scope`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope check (scope in ('email', 'ip'))`.execute(
    db,
  );
}
