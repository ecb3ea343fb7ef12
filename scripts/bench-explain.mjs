#!/usr/bin/env node
// npm run bench:explain: EXPLAIN (ANALYZE, BUFFERS) of every hot query of the customer calls, the
// sign-in, the event batch and the expiry job, on the million-customer database of
// `npm run bench:generate`, for a typical customer (about 49 entries) and one of the 100 with 10 000.
// The statements are the server's own, as PostgreSQL logged them (log_statement = all) while one
// customer signed in, read every page, wrote the profile, a consent and a partner code, refreshed,
// and the rental system sent an event batch. Writes run inside a transaction that is rolled back.
// Needs `npm run build` (the loyalty statements are taken from the built server, member-reads-sql.mjs).
// Usage: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/roadpass_million npm run bench:explain
// Prints Markdown (docs/performance.md#a-million-customers-issue-21).
import pg from 'pg';
import { expiryForecastStatement, historyPageStatement, tierDetailsStatement } from './member-reads-sql.mjs';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/roadpass_million';
const db = new pg.Client({ connectionString: url });
await db.connect();

const pick = async (email) =>
  (await db.query(`select id, email from customers where lower(email) = $1`, [email])).rows[0];
const { rows: count } = await db.query(`select count(*)::int as n from customers`);
// A typical customer from the middle of the million, and a heavy one (10 000 entries).
const typical = await pick(`m${Math.floor(count[0].n * 0.61803) + 1}@million.example`);
const heavy = await pick('m42@million.example');
const { rows: session } = await db.query(
  `select id, uid from oidc_model_instances where kind = 'Session' and account_id = $1 limit 1`,
  [typical.id],
);
const now = new Date();
const yearAgo = new Date(now.getTime() - 365 * 86_400_000);

/** [title, sql, params(customer)] — the statements as the server sends them. */
const queries = [
  ['Sign-in: the customer by e-mail', `select * from "customers" where lower(email) = $1`, (c) => [c.email]],
  // Reads of one turn of the event loop go together (decisions 0053, 0054), their arrays bound so that
  // PostgreSQL keeps one generic plan (batchArray, decision 0055): a batch of one here.
  [
    'Every call: the customers by id',
    `select * from "customers" where id = any((select $1::uuid[])::uuid[])`,
    (c) => [[c.id]],
  ],
  [
    'Every call with a token: the session by uid (identity provider)',
    `select "payload", "consumed_at" from "oidc_model_instances" where "kind" = $1 and "uid" = $2 and ("expires_at" is null or "expires_at" > $3)`,
    () => ['Session', session[0]?.uid ?? 'none', now],
  ],
  [
    'Refresh: a token by id (identity provider)',
    `select "payload", "consumed_at" from "oidc_model_instances" where "kind" = $1 and "id" = $2 and ("expires_at" is null or "expires_at" > $3)`,
    () => ['Session', session[0]?.id ?? 'none', now],
  ],
  [
    'Tier details (loyalty page): membership, account and first expiring lot (memberReads)',
    tierDetailsStatement.text,
    (c) => tierDetailsStatement.values([c.id]),
  ],
  [
    'Before a ledger write: the account and whether anything is due',
    `select "a"."customer_id", "a"."balance", "a"."tier", "a"."tier_expiration_date", "a"."event_count", "a"."updated_at", exists (select "e"."id" from "loyalty_events" as "e" where "e"."customer_id" = "a"."customer_id" and "e"."remaining_points" > $1 and "e"."expires_at" <= $2) as "lots_due" from "loyalty_accounts" as "a" where "a"."customer_id" = $3`,
    (c) => [0, now, c.id],
  ],
  [
    'History, newest page (20 entries by seq), with the member state (memberReads)',
    historyPageStatement.text,
    (c) => historyPageStatement.values([c.id]),
  ],
  [
    "Expiry forecast: the member state, open lots and the tier's qualifying window (memberReads)",
    expiryForecastStatement.text,
    (c) => expiryForecastStatement.values([c.id]),
  ],
  [
    'Spending and expiry: the open lots, oldest first',
    `select "customer_id", "id", "seq", "remaining_points", "expires_at", "description" from "loyalty_events" where customer_id = any($1::uuid[]) and "remaining_points" > $2 order by "customer_id", "expires_at", "seq"`,
    (c) => [[c.id], 0],
  ],
  [
    'Event batch: source ids already recorded',
    `select e.customer_id, e.source_id, e.type, e.points, e.recorded_at
     from unnest($1::uuid[], $2::varchar[]) as k(customer_id, source_id)
     join loyalty_events e on e.customer_id = k.customer_id and e.source_id = k.source_id`,
    (c) => [
      [c.id, c.id],
      ['rental-x-1', 'rental-x-2'],
    ],
  ],
  [
    "Event batch: the points of the tier's qualifying window",
    `select (select sum(e.points) from loyalty_events e
       where e.customer_id = w.customer_id and e.occurred_at > w.since and e.type <> 'expiry') as total
     from unnest($1::uuid[], $2::timestamptz[]) with ordinality as w(customer_id, since, n) order by w.n`,
    (c) => [[c.id], [yearAgo]],
  ],
  [
    'Consents page',
    `select "slug", "legal_entity_id", "granted", "updated_at" from "customer_consents" where "customer_id" = $1`,
    (c) => [c.id],
  ],
  [
    'Security page: sessions',
    `select "sid", "customer_id", "user_agent", "address", "signed_in_at", "last_active_at", "expires_at" from "session_devices" where customer_id = any((select $1::uuid[])::uuid[]) and "expires_at" > $2 and not exists (select "sid" from "ended_sessions" where "ended_sessions"."sid" = "session_devices"."sid") order by "last_active_at" desc`,
    (c) => [[c.id], now],
  ],
  [
    'Security activity: the newest page',
    `select a.n, x.kind, x.occurred_at, x.details, x.count
     from unnest((select $1::uuid[])::uuid[], (select $2::timestamptz[])::timestamptz[],
       (select $3::integer[])::integer[], (select $4::integer[])::integer[])
       with ordinality as a(customer_id, since, page_limit, page_offset, n)
     cross join lateral (
       select * from (
         select kind, occurred_at, details, 1::bigint as count from security_events
           where customer_id = a.customer_id and occurred_at > a.since and kind <> 'sign_in_failed'
         union all
         select 'sign_in_failed', max(occurred_at), (array_agg(details order by occurred_at desc))[1], count(*)
           from security_events
           where customer_id = a.customer_id and occurred_at > a.since and kind = 'sign_in_failed'
           group by date_trunc('day', occurred_at at time zone 'UTC')
       ) events
       order by occurred_at desc
       limit a.page_limit offset a.page_offset
     ) x
     order by a.n, x.occurred_at desc`,
    (c) => [[c.id], [yearAgo], [21], [0]],
  ],
  [
    'Expiry job: everyone with lots or a tier due',
    `select "customer_id" from "loyalty_events" where "remaining_points" > $1 and "expires_at" <= $2 union select "customer_id" from "loyalty_accounts" where "tier_expiration_date" <= $3`,
    () => [0, now, now],
    'once',
  ],
  [
    'Identity provider clean-up on every save: expired rows',
    `delete from "oidc_model_instances" where "expires_at" < $1`,
    () => [now],
    'once',
  ],
];

const eventCount = async (c) =>
  (await db.query(`select event_count from loyalty_accounts where customer_id = $1`, [c.id])).rows[0]
    ?.event_count ?? 0;
const counts = new Map([
  [typical.id, await eventCount(typical)],
  [heavy.id, await eventCount(heavy)],
]);

const { rows: load } = await db.query(`select pg_size_pretty(pg_database_size(current_database())) as size`);
console.log(
  `Database ${load[0].size}; typical customer ${typical.email} (${counts.get(typical.id)} entries), heavy ${heavy.email} (${counts.get(heavy.id)} entries).\n`,
);
for (const [title, sql, params, once] of queries) {
  for (const customer of once ? [typical] : [typical, heavy]) {
    await db.query('begin');
    try {
      const args = params(customer, counts.get(customer.id));
      // Once to warm the cache as a busy server would have it, then measured.
      await db.query(`explain (analyze) ${sql}`, args);
      const { rows } = await db.query(`explain (analyze, buffers) ${sql}`, args);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      const who = once ? '' : customer === heavy ? ' — heavy customer' : ' — typical customer';
      console.log(`#### ${title}${who}\n\n\`\`\`\n${plan}\n\`\`\`\n`);
    } finally {
      await db.query('rollback');
    }
  }
}
await db.end();
