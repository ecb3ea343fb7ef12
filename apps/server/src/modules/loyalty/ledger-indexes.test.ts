import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { statementOf } from '../../db/statement-of.js';
import type { TestDatabase } from '../../testing/test-database.js';
import { createLoyaltyTestDatabase } from '../../testing/loyalty-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { loyaltyQueries } from './loyalty-repository.js';

// Decision 0062: a ledger written as rentals come in has each customer's entries on as many table
// pages as they have entries, so the members' reads must find what they show in the ledger's
// indexes alone. These are the statements memberReads sends (taken from its own code by
// statementOf, as scripts/member-reads-sql.mjs takes them), planned against the migrated schema
// with every scan but an index scan priced out: each read of the ledger must be an index-only scan.
// A column added to a read but not to its index makes it an index scan again, and this test fail.
let database: TestDatabase;
let customerId: string;

beforeAll(async () => {
  const loyalty = await createLoyaltyTestDatabase();
  database = loyalty.database;
  const { content, service } = loyalty;
  customerId = (await createTestCustomer(database.db)).id;
  // Enough points for a tier with an end date, so that the forecast reads the tier's window too.
  const top = Math.max(...content.tierRules.map((rule) => rule.threshold));
  await service.applyEvents(
    Array.from({ length: 30 }, (_, i) => ({
      customerId,
      sourceId: `rental-${i}`,
      type: 'rental-completed' as const,
      points: Math.ceil(top / 20),
    })),
  );
  expect((await service.tierDetails(customerId)).tierExpirationDate).not.toBeNull();
  // Settled, as the ledger's older pages are: the visibility map lets the index answer alone.
  await database.db.executeQuery(CompiledQuery.raw('vacuum analyze loyalty_events'));
});
afterAll(() => database?.drop());

/** The statement memberReads sends for one ask, as text and parameters. */
const memberReadsStatement = (ask: { page?: { index: number; size: number }; forecast?: boolean }) =>
  statementOf((db) => loyaltyQueries(db).memberReads([{ customerId, ...ask }]));

/** The plan's lines that read the ledger. */
async function ledgerReads(query: CompiledQuery): Promise<string[]> {
  return database.db.transaction().execute(async (trx) => {
    for (const setting of ['enable_seqscan', 'enable_bitmapscan'])
      await trx.executeQuery(CompiledQuery.raw(`set local ${setting} = off`));
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain (costs off) ${query.sql}`, [...query.parameters]),
    );
    return plan.rows
      .map((row) => row['QUERY PLAN'].trim())
      .filter((line) => line.includes(' on loyalty_events '));
  });
}

describe('the ledger reads of the members’ calls (decision 0062)', () => {
  it('read a history page from the index alone', async () => {
    const reads = await ledgerReads(await memberReadsStatement({ page: { index: 0, size: 20 } }));
    expect(reads.length).toBeGreaterThan(0);
    expect(
      reads.every((line) => line.startsWith('->  Index Only Scan') || line.startsWith('Index Only Scan')),
    ).toBe(true);
    expect(reads.join('\n')).toContain('using loyalty_events_customer_seq on loyalty_events');
  });

  it('read the forecast’s open lots and the tier’s window from the index alone', async () => {
    const reads = await ledgerReads(await memberReadsStatement({ forecast: true }));
    expect(reads.join('\n')).toContain('using loyalty_events_open_lots_remaining on loyalty_events');
    expect(reads.join('\n')).toContain('using loyalty_events_customer_occurred_points on loyalty_events');
    expect(reads.filter((line) => !line.includes('Index Only Scan'))).toEqual([]);
  });
});
