import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createTestCustomer, TEST_CUSTOMER_PASSWORD } from '../testing/loyalty-members.js';
import { signIn } from '../testing/sign-in.js';
import { migrateToLatest } from './migrate.js';

// docs/operations.md#upgrades-with-migrations: during a rolling upgrade, and after a roll-back, an
// instance of the release before starts on a schema the next release has migrated. Kysely's
// migrator refused such a database ("previously executed migration … is missing"), so an old
// instance that restarted during the roll could not start again (found 30 Nov 2026, running two
// builds side by side on one database).
describe('migrations on a schema a later release has migrated', () => {
  let database: TestDatabase;
  afterEach(() => database?.drop());

  /** What a later release's expand-only migration does: a table and a nullable column added. */
  async function migrateAsALaterRelease(name: string) {
    await sql`create table later_release_notes (id integer primary key)`.execute(database.db);
    await sql`alter table customers add column later_release_flag boolean`.execute(database.db);
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
      database.db,
    );
  }

  it('start an instance of the release before, which serves, and leave the later migrations as they are', async () => {
    database = await createMigratedTestDatabase();
    await migrateAsALaterRelease('9000-a-later-release');

    expect(await migrateToLatest(database.db)).toEqual({ laterMigrations: ['9000-a-later-release'] });
    const t = await createTestApp({}, database.db);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      const customer = await createTestCustomer(t.db, { member: false });
      const tokens = await signIn(t.app, { email: customer.email, password: TEST_CUSTOMER_PASSWORD });
      const status = await t.app.inject({
        method: 'GET',
        url: '/api/customer/cuda/customer/v2/login/own/status',
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      expect(status.statusCode).toBe(200);
    } finally {
      await t.app.close();
    }
    const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      database.db,
    );
    expect(names.rows.filter((r) => r.name === '9000-a-later-release')).toHaveLength(1);
  });

  it('refuse a database with a migration unknown to this release among its own', async () => {
    database = await createMigratedTestDatabase();
    await migrateAsALaterRelease('0003a-not-of-this-project');
    await expect(migrateToLatest(database.db)).rejects.toThrow(
      /previously executed migration 0003a-not-of-this-project/,
    );
  });
});
