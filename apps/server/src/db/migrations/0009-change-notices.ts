import { sql, type Kysely } from 'kysely';

/**
 * Change notices for the per-instance read caches (decision 0011): after every statement that
 * inserts, updates or deletes rows of these tables, NOTIFY `roadpass_changes` once per customer
 * concerned (`customer:<id>` or `loyalty:<id>`). NOTIFY is transactional: listeners hear of a change
 * when, and only if, its transaction commits, whoever wrote it (another instance, the operator
 * command, SQL by hand). Statement-level triggers with transition tables: a 500-event batch costs one
 * trigger call per statement, and PostgreSQL sends equal notices of one transaction once.
 */
const tables = [
  { table: 'customers', column: 'id', topic: 'customer' },
  { table: 'customer_consents', column: 'customer_id', topic: 'loyalty' },
  { table: 'loyalty_accounts', column: 'customer_id', topic: 'loyalty' },
  { table: 'loyalty_events', column: 'customer_id', topic: 'loyalty' },
] as const;

const functionOf = (column: string) => sql.raw(`roadpass_notify_${column}_changes`);

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['id', 'customer_id']) {
    await sql`
      create or replace function ${functionOf(column)}() returns trigger language plpgsql as $$
      begin
        perform pg_notify('roadpass_changes', tg_argv[0] || ':' || k.id)
          from (select distinct changed.${sql.raw(column)}::text as id from changed) k;
        return null;
      end
      $$`.execute(db);
  }
  await sql`
    create or replace function roadpass_notify_truncate() returns trigger language plpgsql as $$
    begin
      perform pg_notify('roadpass_changes', '*');
      return null;
    end
    $$`.execute(db);
  for (const { table, column, topic } of tables) {
    const fn = functionOf(column);
    const t = sql.table(table);
    const name = (event: string) => sql.raw(`${table}_notify_${event}`);
    await sql`create trigger ${name('insert')} after insert on ${t} referencing new table as changed
      for each statement execute function ${fn}(${sql.lit(topic)})`.execute(db);
    await sql`create trigger ${name('update')} after update on ${t} referencing new table as changed
      for each statement execute function ${fn}(${sql.lit(topic)})`.execute(db);
    await sql`create trigger ${name('delete')} after delete on ${t} referencing old table as changed
      for each statement execute function ${fn}(${sql.lit(topic)})`.execute(db);
    await sql`create trigger ${name('truncate')} after truncate on ${t}
      for each statement execute function roadpass_notify_truncate()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of tables) {
    for (const event of ['insert', 'update', 'delete', 'truncate']) {
      await sql`drop trigger if exists ${sql.raw(`${table}_notify_${event}`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
  }
  for (const column of ['id', 'customer_id'])
    await sql`drop function if exists ${functionOf(column)}()`.execute(db);
  await sql`drop function if exists roadpass_notify_truncate()`.execute(db);
}
