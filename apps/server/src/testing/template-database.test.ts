import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../db/database.js';
import { createTestApp, testConfig } from './test-app.js';
import { seedKey } from './template-database.js';
import { createTestDatabase, testDbTarget } from './test-database.js';

/**
 * What a test app starts on: a copy of the run's template (global-setup.ts) must hold what a start on
 * an empty database writes itself, or the suites would test another product than the one that runs.
 */
describe('the test suites’ template database', () => {
  it('is there for this target, and a default test app starts on a copy of it', () => {
    const template = inject('templateDatabase');
    expect(template?.target).toBe(testDbTarget());
    expect(template?.seedKey).toBe(seedKey(testConfig()));
  });

  it('holds what a start on an empty database writes: the same rows, messages, customers and points', async () => {
    const fromTemplate = await createTestApp();
    const empty = await createTestDatabase();
    const fromStart = await createTestApp({}, empty.db);
    try {
      const [copied, started] = await Promise.all([contentOf(fromTemplate.db), contentOf(fromStart.db)]);
      // Not empty: a template without demo data would pass the comparison below too.
      expect(copied.rows.customers).toBeGreaterThanOrEqual(8);
      expect(copied.rows.loyalty_events).toBeGreaterThan(0);
      expect(copied).toEqual(started);
    } finally {
      await fromTemplate.close();
      await fromStart.close();
      await empty.drop();
    }
  });

  it('is not used where the demo data would differ: a test app without demo data starts empty', async () => {
    const bare = await createTestApp({ seedDemoData: false });
    try {
      expect((await contentOf(bare.db)).rows.customers).toBe(0);
    } finally {
      await bare.close();
    }
  });
});

/**
 * A database's content as far as it does not depend on the moment or on chance (ids, times, tokens):
 * each table's row count, the customers, their points and tiers, and the messages sent (their links'
 * tokens left out).
 */
async function contentOf(db: Db) {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const rows: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const counted = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(name)}`.execute(
      db,
    );
    rows[name] = Number(counted.rows[0]!.n);
  }
  const customers = await db
    .selectFrom('customers')
    .select(['email', 'first_name', 'last_name', 'legal_entity_id'])
    .orderBy('email')
    .execute();
  const accounts = await db
    .selectFrom('loyalty_accounts')
    .innerJoin('customers', 'customers.id', 'loyalty_accounts.customer_id')
    .select([
      'customers.email',
      'loyalty_accounts.balance',
      'loyalty_accounts.tier',
      'loyalty_accounts.event_count',
    ])
    .orderBy('customers.email')
    .execute();
  const messages = (
    await db
      .selectFrom('outbox')
      .select(['channel', 'kind', 'recipient', 'subject', 'body'])
      .orderBy('recipient')
      .orderBy('kind')
      .execute()
  ).map((message) => ({ ...message, body: message.body.replace(/[\w-]{20,}/g, '<token>') }));
  return { rows, customers, accounts, messages };
}
