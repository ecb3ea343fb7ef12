import { randomUUID } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from '../../db/seed.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { countingReads } from '../../testing/counting-reads.js';
import { createMigratedTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { createCustomerRepository, type Customer } from './customer-repository.js';

// Decision 0053: the reads by id of one turn of the event loop go to the database as one statement.

let database: TestDatabase;
let customers: Customer[];

beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  customers = [];
  for (let i = 0; i < 5; i++) customers.push(await createTestCustomer(database.db, { member: false }));
});
afterAll(() => database?.drop());

describe('reading customers by id', () => {
  it('answers each caller with their own customer, reads asked together in one statement', async () => {
    const counted = countingReads(database.db);
    const repository = createCustomerRepository(counted.db);
    const unknown = randomUUID();
    const [first, second, missing, again, upperCase] = await Promise.all([
      repository.findById(customers[0]!.id),
      repository.findById(customers[1]!.id),
      repository.findById(unknown),
      repository.findById(customers[0]!.id),
      repository.findById(customers[2]!.id.toUpperCase()),
    ]);
    expect(first?.email).toBe(customers[0]!.email);
    expect(second?.email).toBe(customers[1]!.email);
    expect(missing).toBeUndefined();
    expect(upperCase?.email).toBe(customers[2]!.email);
    // The same customer twice: equal, yet each caller's own object.
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(counted.reads()).toBe(1);
    // Every column but the password hash.
    expect(Object.keys(first!).sort()).toEqual(Object.keys(customers[0]!).sort());
  });

  it('reads again every time: a change is seen by the next read', async () => {
    const repository = createCustomerRepository(database.db);
    const id = customers[3]!.id;
    await repository.update(id, { first_name: 'Changed' });
    expect((await repository.findById(id))?.first_name).toBe('Changed');
    await repository.update(id, { first_name: 'Again' });
    expect((await repository.findById(id))?.first_name).toBe('Again');
  });

  it('inside a transaction, reads on the transaction and sees its uncommitted change', async () => {
    await database.db
      .transaction()
      .execute(async (tx) => {
        const repository = createCustomerRepository(tx);
        await tx
          .updateTable('customers')
          .set({ last_name: 'Inside' })
          .where('id', '=', customers[4]!.id)
          .execute();
        expect((await repository.findById(customers[4]!.id))?.last_name).toBe('Inside');
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect((await createCustomerRepository(database.db).findById(customers[4]!.id))?.last_name).toBe(
      'Member',
    );
  });

  it('a read that fails fails for each of its callers, and the next reads work', async () => {
    const failing: KyselyPlugin = {
      transformQuery: () => {
        throw new Error('database gone');
      },
      transformResult: async ({ result }) => result,
    };
    const broken = createCustomerRepository(database.db.withPlugin(failing));
    const outcomes = await Promise.allSettled([
      broken.findById(customers[0]!.id),
      broken.findById(customers[1]!.id),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    const repository = createCustomerRepository(database.db);
    expect((await repository.findById(customers[1]!.id))?.email).toBe(customers[1]!.email);
  });
});
