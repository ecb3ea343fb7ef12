import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestDatabase, testDbTarget, type TestDatabase } from '../testing/test-database.js';
import { batchArray } from './batch-array.js';
import { openDatabase, type Db } from './database.js';

// Decision 0051: on PostgreSQL the app's statements are prepared once per connection, except those
// that select every column (`select *`, `t.*`, `returning *`), and never through a transaction-pooling
// PgBouncer unless asked for.

describe('DATABASE_PREPARED_STATEMENTS', () => {
  it('is on for a direct connection, off when DATABASE_DIRECT_URL says DATABASE_URL is a PgBouncer', () => {
    const url = 'postgres://roadpass@db.example:5432/roadpass';
    const bouncer = 'postgres://roadpass@pgbouncer.example:6432/roadpass';
    expect(loadConfig({ DATABASE_URL: url }).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_URL: bouncer, DATABASE_DIRECT_URL: url }).databasePreparedStatements).toBe(
      false,
    );
    expect(
      loadConfig({ DATABASE_URL: bouncer, DATABASE_DIRECT_URL: url, DATABASE_PREPARED_STATEMENTS: 'true' })
        .databasePreparedStatements,
    ).toBe(true);
    expect(
      loadConfig({ DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements,
    ).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });
});

if (testDbTarget() === 'postgres')
  describe('prepared statements on a PostgreSQL server', () => {
    let database: TestDatabase;
    let db: Db;
    beforeAll(async () => {
      database = await createTestDatabase();
      // One connection: what it has prepared is what pg_prepared_statements shows.
      db = await openDatabase({
        databaseUrl: database.url,
        dataDir: '',
        poolSize: 1,
        preparedStatements: true,
      });
      await sql`create table prepared_probe (id int primary key, label text)`.execute(db);
      await sql`insert into prepared_probe values (1, 'one'), (2, 'two')`.execute(db);
    });
    afterAll(async () => {
      await db?.destroy();
      await database?.drop();
    });

    const prepared = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
        (r) => r.statement,
      );
    const labelOf = (id: number) =>
      db
        .selectFrom('prepared_probe' as never)
        .select(sql<string>`label`.as('label'))
        .where(sql`id`, '=', id)
        .executeTakeFirst() as Promise<{ label: string } | undefined>;

    it('prepares a statement once and answers every run of it, with any values', async () => {
      expect(await labelOf(1)).toEqual({ label: 'one' });
      expect(await labelOf(2)).toEqual({ label: 'two' });
      expect(await labelOf(3)).toBeUndefined();
      const statements = await prepared();
      expect(statements.filter((s) => s.startsWith('select') && s.includes('prepared_probe'))).toHaveLength(
        1,
      );
    });

    it('never prepares a statement with select *, which a new column would break', async () => {
      await sql`select * from prepared_probe where id = ${1}`.execute(db);
      expect((await prepared()).some((s) => s.includes('select * from prepared_probe'))).toBe(false);
    });

    it('prepares a statement that multiplies or counts, never one that selects every column', async () => {
      const doubled = await sql<{ doubled: number }>`select (id + 1) * 2 as doubled from prepared_probe
        where id = ${2}`.execute(db);
      expect(doubled.rows).toEqual([{ doubled: 6 }]);
      await sql`select p.* from prepared_probe p where id = ${1}`.execute(db);
      await sql`select count(*) as probes from prepared_probe where id > ${0}`.execute(db);
      await sql`select id, * from prepared_probe where id = ${1}`.execute(db);
      await sql`update prepared_probe set label = label where id = ${1} returning *`.execute(db);
      const statements = await prepared();
      expect(statements.filter((s) => s.includes('as doubled'))).toHaveLength(1);
      // A count is a number whatever the columns.
      expect(statements.filter((s) => s.includes('count(*) as probes'))).toHaveLength(1);
      for (const every of ['p.*', 'id, *', 'returning *']) {
        expect(statements.filter((s) => s.includes(every))).toEqual([]);
      }
    });

    it("plans a batch's statement once when its array is a batchArray, at every call when bound plainly", async () => {
      // Decision 0055: the batched reads of one turn (customers by id, member reads) bind their ids as
      // one array; PostgreSQL sizes a custom plan to a plain array's length and never keeps the generic one.
      const plans = async (marker: string) =>
        (
          await sql<{ generic_plans: string; custom_plans: string }>`
            select generic_plans, custom_plans from pg_prepared_statements
            where statement like ${`%${marker}%`}`.execute(db)
        ).rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
      const batches = [[1], [1, 2], [2], [1, 2, 3], [3, 1], [2, 2, 1], [1], [2, 3]];
      const plainly = [];
      const once = [];
      for (const ids of batches) {
        plainly.push(
          (
            await sql<{ plain_batch: string }>`select label as plain_batch from prepared_probe
              where id = any(${ids}::integer[]) order by id`.execute(db)
          ).rows.map((r) => r.plain_batch),
        );
        once.push(
          (
            await sql<{ once_batch: string }>`select label as once_batch from prepared_probe
              where id = any(${batchArray(ids, 'integer')}) order by id`.execute(db)
          ).rows.map((r) => r.once_batch),
        );
      }
      // The same answers either way: the ids that exist, once each.
      expect(once).toEqual(plainly);
      expect(once[5]).toEqual(['one', 'two']);
      expect(once[3]).toEqual(['one', 'two']);
      expect(await plans('plain_batch')).toEqual([{ generic: 0, custom: batches.length }]);
      const [planned] = await plans('once_batch');
      // Five custom plans to compare with, then the generic plan for every call after.
      expect(planned!.custom).toBeLessThanOrEqual(5);
      expect(planned!.generic).toBe(batches.length - planned!.custom);
    });

    it('sends a statement unnamed after PostgreSQL found its prepared form stale', async () => {
      expect(await labelOf(1)).toEqual({ label: 'one' });
      // The column's type changes under the prepared statement (an upgrade's migration could).
      await sql`alter table prepared_probe alter column label type varchar(20)`.execute(db);
      const first = await labelOf(1).catch((error: { code?: string }) => error);
      // PostgreSQL either plans it again itself or refuses it once; either way the next run answers.
      if (!(first && 'label' in first)) expect((first as { code?: string }).code).toBe('0A000');
      expect(await labelOf(1)).toEqual({ label: 'one' });
      expect(await labelOf(2)).toEqual({ label: 'two' });
    });
  });
