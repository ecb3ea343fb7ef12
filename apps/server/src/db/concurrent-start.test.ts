import { afterEach, describe, expect, it } from 'vitest';
import { legalEntities } from '@roadpass/contracts';
import { buildApp } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { testConfig } from '../testing/test-app.js';
import { openDatabase, type Db } from './database.js';

// Issue 10, finding 7: two instances started at the same moment on an empty database; one always
// exited with `duplicate key value violates unique constraint "customers_email_lower"` from the demo
// seed. Every start step (migrations, reference data, identity provider keys, demo data) must be safe
// to run at once. On PostgreSQL each instance gets its own connection pool, as two processes would.
describe('two instances starting at the same moment on an empty database', () => {
  let database: TestDatabase;
  const extraPools: Db[] = [];

  afterEach(async () => {
    await Promise.all(extraPools.splice(0).map((db) => db.destroy()));
    await database?.drop();
  });

  it('both start, and the demo data exists once', async () => {
    database = await createTestDatabase();
    const second = database.url
      ? await openDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 5 })
      : database.db;
    if (second !== database.db) extraPools.push(second);

    const config = testConfig();
    const apps = await Promise.all([buildApp(config, { db: database.db }), buildApp(config, { db: second })]);
    await Promise.all(apps.map((app) => app.ready()));

    const customers = await database.db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(customers.count)).toBe(legalEntities.length);
    for (const app of apps) {
      const status = await app.inject({ method: 'GET', url: '/config.json' });
      expect(status.statusCode).toBe(200);
    }
    await Promise.all(apps.map((app) => app.close()));
  });
});
