import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyClusterDump } from '../testing/test-database.js';
import { databaseSource, openDatabase, type Db } from './database.js';
import { PGliteWorkerClient, PGliteWorkerDialect } from './pglite-client.js';

// Embedded PGlite runs in a worker thread (docs/decisions/0012-pglite-worker.md). These tests open
// PGlite whatever the project's storage: the worker is what they test.

interface Things {
  things: { id: number; name: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openWorker() {
  const client = await PGliteWorkerClient.start({
    dataDir: 'memory://',
    loadDataDir: await emptyClusterDump(),
  });
  const db = new Kysely<Things>({ dialect: new PGliteWorkerDialect(client) });
  await sql`create table things (id int primary key, name text not null unique)`.execute(db);
  return { client, db };
}

describe('embedded PGlite in a worker thread', () => {
  let db: Kysely<Things>;

  beforeAll(async () => {
    ({ db } = await openWorker());
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('leaves the event loop free while a statement runs: a timer fires before it ends', async () => {
    // With PGlite in this thread a timer could not fire until the statement had finished. The order
    // is what is checked (a 20 ms timer against a 1 s statement), not a duration, so a loaded machine
    // cannot fail it.
    const events: string[] = [];
    const query = sql`select pg_sleep(1)`.execute(db).then(() => events.push('statement finished'));
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push('timer fired');
        resolve();
      }, 20),
    );
    await query;
    expect(events).toEqual(['timer fired', 'statement finished']);
  });

  it('gives an open transaction the database alone; a rollback keeps only what ran outside', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    const transaction = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('things').values({ id: 1, name: 'inside' }).execute();
        outside = Promise.all([
          db
            .selectFrom('things')
            .select('name')
            .execute()
            .then((rows) => {
              order.push('outside select');
              return rows;
            }),
          db
            .insertInto('things')
            .values({ id: 2, name: 'outside' })
            .execute()
            .then(() => order.push('outside insert')),
        ]);
        await sleep(100);
        order.push('transaction ends');
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);

    expect(await transaction).toBe('roll back');
    const [seen] = (await outside) as [{ name: string }[]];
    expect(order[0]).toBe('transaction ends');
    expect(seen.map((r) => r.name)).not.toContain('inside');
    expect(await db.selectFrom('things').select('name').execute()).toEqual([{ name: 'outside' }]);
    await db.deleteFrom('things').execute();
  });

  it('keeps savepoints', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('things').values({ id: 3, name: 'kept' }).execute();
    const point = await trx.savepoint('before_second').execute();
    await point.insertInto('things').values({ id: 4, name: 'undone' }).execute();
    const back = await point.rollbackToSavepoint('before_second').execute();
    await back.commit().execute();
    expect(await db.selectFrom('things').select('name').execute()).toEqual([{ name: 'kept' }]);
    await db.deleteFrom('things').execute();
  });

  it("keeps PostgreSQL's error fields (a unique violation is 23505)", async () => {
    await db.insertInto('things').values({ id: 5, name: 'twice' }).execute();
    const error = await db
      .insertInto('things')
      .values({ id: 6, name: 'twice' })
      .execute()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 'things_name_key',
      table: 'things',
      severity: 'ERROR',
      message: expect.stringContaining('duplicate key'),
    });
    await db.deleteFrom('things').execute();
  });

  it('rolls back at commit a transaction whose statement failed (25P02), as Kysely expects', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('things').values({ id: 7, name: 'first' }).execute();
    await trx
      .insertInto('things')
      .values({ id: 7, name: 'again' })
      .execute()
      .catch(() => undefined);
    const error = await trx
      .commit()
      .execute()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortedTransactionError', cause: { code: '25P02' } });
    expect(await db.selectFrom('things').selectAll().execute()).toEqual([]);
  });

  it('passes rows across with their types (dates, bytes, JSON, numbers)', async () => {
    const [row] = (
      await sql<{
        at: Date;
        bytes: Uint8Array;
        doc: { a: number[] };
        n: number;
        big: number | bigint;
      }>`select ${new Date('2026-01-02T03:04:05Z')}::timestamptz as at, '\\x0102'::bytea as bytes,
        '{"a":[1,2]}'::jsonb as doc, 42 as n, 9007199254740993::int8 as big`.execute(db)
    ).rows;
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect([...row!.bytes]).toEqual([1, 2]);
    expect(row!.doc).toEqual({ a: [1, 2] });
    expect(row!.n).toBe(42);
  });
});

describe('the worker thread of openDatabase', () => {
  let db: Db;

  beforeAll(async () => {
    db = await openDatabase({
      databaseUrl: undefined,
      dataDir: 'memory://',
      loadDataDir: await emptyClusterDump(),
    });
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('delivers LISTEN/NOTIFY to the source’s listen, until unlisten', async () => {
    const source = databaseSource(db);
    if (source?.kind !== 'pglite') throw new Error('expected embedded PGlite');
    const heard: string[] = [];
    const unlisten = await source.pglite.listen('roadpass_test_channel', (payload) => heard.push(payload));
    await sql`select pg_notify('roadpass_test_channel', 'first')`.execute(db);
    await expect.poll(() => heard, { timeout: 2000 }).toEqual(['first']);
    await unlisten();
    await sql`select pg_notify('roadpass_test_channel', 'second')`.execute(db);
    await sql`select 1`.execute(db);
    await sleep(50);
    expect(heard).toEqual(['first']);
  });
});

describe('the end of the worker thread', () => {
  it('destroy() closes PGlite and ends the worker; later queries fail', async () => {
    const { client, db } = await openWorker();
    await db.destroy();
    expect(client.ended).toBe(true);
    await expect(client.query('select 1', [])).rejects.toThrow(/closed/);
  });

  it('a crashed worker fails the pending query and every later one, without hanging', async () => {
    const { client, db } = await openWorker();
    const pending = sql`select pg_sleep(5)`.execute(db);
    await sleep(50);
    await client.abort();
    await expect(pending).rejects.toThrow(/worker thread/);
    await expect(db.selectFrom('things').selectAll().execute()).rejects.toThrow(/worker thread/);
    expect(client.failure).toBeInstanceOf(Error);
    await db.destroy();
  });
});
