import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { seedReferenceData } from '../db/seed.js';
import { createTestCustomer } from '../testing/loyalty-members.js';
import { createMigratedTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { runAccountCli } from './account-cli.js';

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await createMigratedTestDatabase();
  await seedReferenceData(database.db);
  dir = await mkdtemp(path.join(tmpdir(), 'account-cli-'));
});
afterAll(async () => {
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost:8080' };

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAccountCli(
    args,
    { out: (text) => out.push(text), err: (text) => err.push(text) },
    { env, db: database.db },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const entryNames = (file: string) =>
  new Promise<string[]>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: false }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
    }),
  );

describe('npm run account (docs/product/data-rights.md#support-staff)', () => {
  it('writes a customer’s export to a file, erases the customer, and refuses what it cannot do', async () => {
    const customer = await createTestCustomer(database.db);
    const file = path.join(dir, 'export.zip');
    const exported = await run(['export', customer.email, file]);
    expect(exported).toMatchObject({ code: 0, err: '' });
    expect(await entryNames(file)).toEqual(
      expect.arrayContaining(['index.html', 'profile.json', 'schemas/profile.schema.json']),
    );
    expect((await readFile(file)).subarray(0, 2).toString()).toBe('PK');

    await database.db
      .insertInto('deletion_blockers')
      .values({ customer_id: customer.id, legal_entity_id: 10, kind: 'open_rental', reference: 'B-77' })
      .execute();
    const blocked = await run(['erase', customer.email]);
    expect(blocked.code).toBe(1);
    expect(blocked.err).toContain('legal entity 10: open_rental B-77');

    await database.db.deleteFrom('deletion_blockers').where('customer_id', '=', customer.id).execute();
    const erased = await run(['erase', customer.email]);
    expect(erased).toMatchObject({ code: 0 });
    const feed = await database.db.selectFrom('erasures').select('customer_id').execute();
    expect(feed).toEqual([{ customer_id: customer.id }]);
    const again = await run(['erase', customer.email]);
    expect(again).toMatchObject({ code: 1, err: `No customer with the e-mail address ${customer.email}` });
    expect((await run(['erase'])).code).toBe(1);
  });
});
