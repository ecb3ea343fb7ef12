import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApiErrorBody,
  apiPaths,
  SecurityActivityPage,
  SecurityActivityQuery,
  type SecurityActivityEvent,
  type SecurityEventKind,
} from '@roadpass/contracts';
import type { Db } from '../../db/database.js';
import { batchArray, type BatchArrayType } from '../../db/batch-array.js';
import { batchPerTurn } from '../../lib/batch-per-turn.js';
import { describeDevice, shortenAddress, type PlaceFinder } from '../../lib/device-description.js';

interface Row {
  kind: string;
  occurred_at: Date;
  details: Record<string, unknown>;
  count: number | string;
}

/** One page of one customer's activity: `limit` rows from `offset`, since `since`. */
interface PageAsk {
  customerId: string;
  since: Date;
  limit: number;
  offset: number;
}

/**
 * Pages of security activity, those asked for in one turn of the event loop read together in one
 * statement, each page by the (customer, time) index (decision 0054). Failed sign-ins are one row per
 * day with their count.
 */
function activityPages(db: Db) {
  return batchPerTurn<PageAsk, Row[]>(async (asks) => {
    const column = (pick: (ask: PageAsk) => unknown, type: BatchArrayType) =>
      batchArray(asks.map(pick), type);
    const { rows } = await sql<Row & { n: string | number }>`
      select a.n, x.kind, x.occurred_at, x.details, x.count
      from unnest(
        ${column((a) => a.customerId, 'uuid')}, ${column((a) => a.since, 'timestamptz')},
        ${column((a) => a.limit, 'integer')}, ${column((a) => a.offset, 'integer')}
      ) with ordinality as a(customer_id, since, page_limit, page_offset, n)
      cross join lateral (
        select kind, occurred_at, details, count from (
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
      order by a.n, x.occurred_at desc`.execute(db);
    const pages = asks.map((): Row[] => []);
    for (const { n, ...row } of rows) pages[Number(n) - 1]!.push(row);
    return pages;
  });
}

/**
 * GET the customer's own security activity (docs/product/security.md#security-activity), newest
 * first, paged, within the retention period. Failed sign-ins are one entry per day with their count.
 * Devices and places are described here, in the reader's language, from what the event kept.
 */
export const securityActivityRoutes: FastifyPluginAsync<{
  retentionDays: number;
  places: () => PlaceFinder;
}> = async (app, { retentionDays, places }) => {
  const pageOf = activityPages(app.db);
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    apiPaths.securityActivity,
    {
      schema: {
        tags: ['customer'],
        summary: "The customer's security activity of the retention period, newest first, paged",
        security: [{ bearer: [] }],
        querystring: SecurityActivityQuery,
        response: { 200: SecurityActivityPage, 400: ApiErrorBody, 401: ApiErrorBody, 403: ApiErrorBody },
      },
    },
    async (request) => {
      const { customerId, claims } = request.customer!;
      const { page, size } = request.query;
      const since = new Date(Date.now() - retentionDays * 86_400_000);
      const rows = await pageOf({ customerId, since, limit: size + 1, offset: page * size });
      const language = typeof claims.locale === 'string' ? claims.locale : 'en';
      const finder = places();
      const events = rows.slice(0, size).map((row): SecurityActivityEvent => {
        const details = row.details ?? {};
        const userAgent = typeof details.userAgent === 'string' ? details.userAgent : undefined;
        const address = typeof details.address === 'string' ? details.address : undefined;
        const device = userAgent ? describeDevice(userAgent) : undefined;
        const deviceText = device ? [device.client, device.system].filter(Boolean).join(', ') : '';
        const place = address ? (finder.placeOf(address, language) ?? shortenAddress(address)) : '';
        return {
          kind: row.kind as SecurityEventKind,
          occurredAt: new Date(row.occurred_at).toISOString(),
          ...(deviceText ? { device: deviceText } : {}),
          ...(place ? { place } : {}),
          ...(row.kind === 'sign_in_failed' ? { count: Number(row.count) } : {}),
          ...(typeof details.reason === 'string' ? { reason: details.reason } : {}),
          ...(typeof details.passkey === 'string' ? { passkey: details.passkey } : {}),
        };
      });
      return { events, page, hasMore: rows.length > size, retentionDays };
    },
  );
};
