// The loyalty repository's memberReads statement as the server sends it (loyalty-repository.ts), for
// the benchmarks that run it without the server: bench:explain (its plans) and bench:floor (what a bare
// Fastify answering with it reaches). Its parameters: $1 the core consent's slug, $2 the customer ids,
// $3 page indexes, $4 page sizes, $5 whether the forecast is asked, $6 (forecast only) the months a lot
// lives. Kept by hand: a change of the server's statement is made here too.

/**
 * The loyalty repository's memberReads statement: the member state, and with it the columns a batch
 * asks for (a history page, the forecast's open lots and tier window), null otherwise.
 */
export const memberReadsSql = ({ page = 'null::text', openLots = 'null::text', tierWindow = 'null::int8' }) =>
  `select r.n, exists (select 1 from customer_consents cc where cc.customer_id = "c"."id"
       and cc.slug = $1 and cc.granted) as member,
       "a"."customer_id", "a"."balance", "a"."tier", "a"."tier_expiration_date", "a"."event_count", "a"."updated_at",
       (select min(e.expires_at) from loyalty_events e
         where e.customer_id = c.id and e.remaining_points > 0) as first_lot_expiry,
       ${page} as page, ${openLots} as open_lots, ${tierWindow} as tier_window_points
     from unnest((select $2::uuid[])::uuid[], (select $3::int8[])::int8[], (select $4::int8[])::int8[],
       (select $5::boolean[])::boolean[]) with ordinality as r(customer_id, index, size, forecast, n)
     join customers c on c.id = r.customer_id
     left join loyalty_accounts a on a.customer_id = c.id`;

/** The history page's statement: the member state and one page of entries as JSON text. */
export const historyPageSql = memberReadsSql({
  page: `case when r.size > 0 and a.customer_id is not null then coalesce((
         select json_agg(json_build_object('id', e.id::text, 'type', e.type, 'points', e.points,
           'tier', e.tier_after,
           'occurredAt', to_char("e"."occurred_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'expirationDate', to_char("e"."expires_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'description', e.description) order by e.seq desc)
         from loyalty_events e
         where e.customer_id = c.id and e.seq > a.event_count - (r.index + 1) * r.size
           and e.seq <= a.event_count - r.index * r.size), '[]')::text end`,
});

/** The expiry forecast's statement: the member state, the open lots and the tier's window. */
export const expiryForecastSql = memberReadsSql({
  openLots: `case when r.forecast and a.customer_id is not null then (
         select json_agg(json_build_array(d.remaining, d.first_ms) order by d.first_ms)
         from (
           select sum(e.remaining_points) as remaining,
             (extract(epoch from min(e.expires_at)) * 1000)::int8 as first_ms
           from loyalty_events e where e.customer_id = c.id and e.remaining_points > 0
           group by (e.expires_at at time zone 'UTC')::date
         ) d)::text end`,
  tierWindow: `case when r.forecast and a.tier_expiration_date is not null then (
         select coalesce(sum(e.points), 0) from loyalty_events e
         where e.customer_id = c.id and e.type <> 'expiry' and e.occurred_at > ((a.tier_expiration_date
           at time zone 'UTC') - make_interval(months => $6)) at time zone 'UTC') end`,
});
