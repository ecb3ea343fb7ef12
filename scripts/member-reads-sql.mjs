// The loyalty repository's memberReads statement (loyalty-repository.ts) exactly as the built server
// sends it (`npm run build` first), for the benchmarks that run it without the server: bench:explain
// (its plans) and bench:floor (what a bare Fastify answering with it reaches). Each shape (the tier
// details alone, with a history page, with the forecast) is taken from the server's own code by its
// statementOf (apps/server/src/db/statement-of.ts: a Kysely that sends nothing and notes what it
// would have sent).
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { loyaltyQueries } = await import(
  path.join(root, 'apps/server/dist/modules/loyalty/loyalty-repository.js')
);
const { statementOf } = await import(path.join(root, 'apps/server/dist/db/statement-of.js'));

/** The customer id the statement is taken with: its array is the batch's ids. */
const MARKER = '00000000-0000-4000-8000-000000000001';

/**
 * The statement memberReads sends for asks shaped like `ask`: its text, and `values(ids)`, its
 * parameters for a batch of those customers (each per-ask array holds the ask's value once per id).
 */
async function memberReadsStatement(ask) {
  const query = await statementOf((db) => loyaltyQueries(db).memberReads([{ customerId: MARKER, ...ask }]));
  return {
    text: query.sql,
    values: (ids) =>
      query.parameters.map((p) => (Array.isArray(p) ? (p[0] === MARKER ? ids : ids.map(() => p[0])) : p)),
  };
}

/** The tier details' statement: membership, account and the first expiring lot. */
export const tierDetailsStatement = await memberReadsStatement({});
/** The history page's: the same with the newest page of 20 entries as JSON text. */
export const historyPageStatement = await memberReadsStatement({ page: { index: 0, size: 20 } });
/** The expiry forecast's: the same with the open lots and the tier's qualifying window. */
export const expiryForecastStatement = await memberReadsStatement({ forecast: true });
