import { sql } from 'kysely';
import { DEFAULT_MIGRATION_TABLE, Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * This release's migrations, and, as steps that do nothing, those a later release has already run on
 * the database (`later`). Kysely refuses a database holding a migration its code does not list; an
 * instance of the release before must still start on a schema the next release expanded (a rolling
 * upgrade, a roll-back: docs/operations.md#upgrades-with-migrations).
 */
class ReleaseMigrationProvider implements MigrationProvider {
  constructor(private readonly later: readonly string[]) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const fromLaterRelease: Migration = {
      up: async () => {
        throw new Error('a migration of a later release cannot run here');
      },
    };
    return { ...migrations, ...Object.fromEntries(this.later.map((name) => [name, fromLaterRelease])) };
  }
}

/**
 * The migrations run on the database that this release does not know and that come after all of its
 * own: a later release's. An unknown name among this release's own (before its last) is not one of
 * them: Kysely then refuses the database as corrupted, as it should.
 */
async function laterReleasesMigrations(db: Db): Promise<string[]> {
  const known = Object.keys(migrations).sort();
  const last = known.at(-1)!;
  const table = await sql<{
    present: string | null;
  }>`select to_regclass(${DEFAULT_MIGRATION_TABLE}) as present`.execute(db);
  if (!table.rows[0]?.present) return [];
  const executed = await sql<{
    name: string;
  }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return executed.rows.map((r) => r.name).filter((name) => !known.includes(name) && name > last);
}

/**
 * Brings the schema up to date; throws with the failing migration's name. On a schema a later
 * release has migrated further, runs what this release lacks of its own (nothing, normally) and
 * leaves the later release's migrations as they are (`laterMigrations` in the answer, for the log).
 */
export async function migrateToLatest(db: Db): Promise<{ laterMigrations: string[] }> {
  // Twice at most: a later release's instance may migrate between the look at the table and the
  // migrator's lock (two releases starting at once during a roll).
  for (let attempt = 1; ; attempt += 1) {
    const later = await laterReleasesMigrations(db);
    const migrator = new Migrator({ db, provider: new ReleaseMigrationProvider(later) });
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return { laterMigrations: later };
    const detail = error instanceof Error ? error.message : String(error);
    if (attempt < 2 && detail.includes('previously executed migration')) continue;
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${detail}`, { cause: error });
  }
}
