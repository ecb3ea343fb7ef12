import { sql, type Kysely } from 'kysely';

/**
 * Decision 0062: the ledger's indexes carry what the members' reads show, so that a history page,
 * the forecast's open lots and the tier window's points are read from the index alone (index-only
 * scans) instead of from one table page per entry. A ledger written as rentals come in has each
 * customer's entries on as many table pages as they have entries (docs/performance.md#ledger-as-recorded).
 *
 * - `(customer_id, seq)`, the unique constraint a history page is read by, includes the page's
 *   columns;
 * - `(customer_id, occurred_at)` includes the points and the type (the tier window's sum);
 * - the open lots' `(customer_id, expires_at)` includes what remains of each lot.
 *
 * Each new index is made under a name of its own with `if not exists`, so that an operator of a large
 * ledger can build them beforehand with `create index concurrently` (docs/operations.md#upgrades-with-migrations)
 * and this migration then only swaps them in. Old instances read and write as before: no statement
 * names an index, and the unique constraint keeps its name and its columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index if not exists loyalty_events_customer_seq_page on loyalty_events
    (customer_id, seq) include (id, type, points, tier_after, occurred_at, expires_at, description)`.execute(
    db,
  );
  await sql`alter table loyalty_events drop constraint loyalty_events_customer_seq,
    add constraint loyalty_events_customer_seq unique using index loyalty_events_customer_seq_page`.execute(
    db,
  );
  await sql`create index if not exists loyalty_events_customer_occurred_points on loyalty_events
    (customer_id, occurred_at) include (points, type)`.execute(db);
  await sql`drop index if exists loyalty_events_customer_occurred`.execute(db);
  await sql`create index if not exists loyalty_events_open_lots_remaining on loyalty_events
    (customer_id, expires_at) include (remaining_points) where remaining_points > 0`.execute(db);
  await sql`drop index if exists loyalty_events_open_lots`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists loyalty_events_open_lots on loyalty_events
    (customer_id, expires_at) where remaining_points > 0`.execute(db);
  await sql`drop index if exists loyalty_events_open_lots_remaining`.execute(db);
  await sql`create index if not exists loyalty_events_customer_occurred on loyalty_events
    (customer_id, occurred_at)`.execute(db);
  await sql`drop index if exists loyalty_events_customer_occurred_points`.execute(db);
  await sql`create unique index if not exists loyalty_events_customer_seq_narrow on loyalty_events
    (customer_id, seq)`.execute(db);
  await sql`alter table loyalty_events drop constraint loyalty_events_customer_seq,
    add constraint loyalty_events_customer_seq unique using index loyalty_events_customer_seq_narrow`.execute(
    db,
  );
}
