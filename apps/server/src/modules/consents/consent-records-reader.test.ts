import { randomUUID } from 'node:crypto';
import { LOYALTY_CORE_CONSENT } from '@roadpass/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from '../../db/seed.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { countingReads } from '../../testing/counting-reads.js';
import { createMigratedTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import type { Customer } from '../customers/index.js';
import { consentRecordsReader, saveConsent } from './consent-repository.js';

// The consents call reads a customer's records with the other calls of its turn (decision 0053).

let database: TestDatabase;
let member: Customer;
let other: Customer;

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  member = await createTestCustomer(database.db);
  other = await createTestCustomer(database.db, { member: false });
  await saveConsent(database.db, {
    customerId: other.id,
    slug: 'marketing-sms-Sm3q',
    legalEntityId: other.legal_entity_id,
    granted: true,
  });
});
afterAll(() => database?.drop());

describe('consent records read together', () => {
  it("answers each caller with their own customer's records, in one statement", async () => {
    const counted = countingReads(database.db);
    const recordsOf = consentRecordsReader(counted.db);
    const [mine, theirs, nobody, notAnId, mineAgain, upperCase] = await Promise.all([
      recordsOf(member.id),
      recordsOf(other.id),
      recordsOf(randomUUID()),
      recordsOf('not-a-uuid'),
      recordsOf(member.id),
      recordsOf(other.id.toUpperCase()),
    ]);
    expect(mine.map((r) => [r.slug, r.granted])).toEqual([[LOYALTY_CORE_CONSENT, true]]);
    expect(theirs.map((r) => [r.slug, r.granted])).toEqual([['marketing-sms-Sm3q', true]]);
    expect(upperCase).toEqual(theirs);
    expect(nobody).toEqual([]);
    expect(notAnId).toEqual([]);
    // The same customer twice: equal lists, each caller's own.
    expect(mineAgain).toEqual(mine);
    expect(mineAgain).not.toBe(mine);
    expect(counted.reads()).toBe(1);
    // Every field as the table holds it.
    const stored = await database.db
      .selectFrom('customer_consents')
      .select(['slug', 'legal_entity_id', 'granted', 'updated_at'])
      .where('customer_id', '=', member.id)
      .execute();
    expect(mine).toEqual(
      stored.map((row) => ({
        slug: row.slug,
        legalEntityId: row.legal_entity_id,
        granted: row.granted,
        updatedAt: new Date(row.updated_at),
      })),
    );
  });

  it('reads again every time: a change is seen by the next read', async () => {
    const recordsOf = consentRecordsReader(database.db);
    const change = (granted: boolean) =>
      saveConsent(database.db, {
        customerId: member.id,
        slug: 'marketing-sms-Sm3q',
        legalEntityId: member.legal_entity_id,
        granted,
      });
    await change(true);
    expect((await recordsOf(member.id)).find((r) => r.slug === 'marketing-sms-Sm3q')?.granted).toBe(true);
    await change(false);
    expect((await recordsOf(member.id)).find((r) => r.slug === 'marketing-sms-Sm3q')?.granted).toBe(false);
  });
});
