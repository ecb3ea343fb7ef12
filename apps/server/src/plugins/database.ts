import fp from 'fastify-plugin';
import type { AppConfig } from '../config.js';
import { databaseSource, openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedReferenceData } from '../db/seed.js';
import { startStep } from '../lib/start-step.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Opens the database, brings its schema up to date, seeds reference data, closes it on close. */
export default fp<{ config: AppConfig; db?: Db }>(
  async (app, { config, db: given }) => {
    const db =
      given ??
      (await startStep('open the database', () =>
        openDatabase({
          databaseUrl: config.databaseUrl,
          databaseDirectUrl: config.databaseDirectUrl,
          dataDir: config.dataDir,
          poolSize: config.databasePoolSize,
          preparedStatements: config.databasePreparedStatements,
        }),
      ));
    // Kysely's migrator holds a session advisory lock around the migrations' transaction: through a
    // transaction-pooling PgBouncer its lock and unlock could land on two server connections (the
    // lock then stays, and the next instance waits for it). With DATABASE_DIRECT_URL they run on a
    // connection straight to PostgreSQL (deploy/README.md#connections).
    const { laterMigrations } = await startStep('database migrations', () =>
      onDirectConnection(db, config, migrateToLatest),
    );
    // A later release migrated the schema further (a rolling upgrade, a roll-back): expand-only
    // migrations keep it readable by this one (docs/operations.md#upgrades-with-migrations).
    if (laterMigrations.length > 0)
      app.log.warn({ laterMigrations }, "the database's schema is a later release's: running on it as it is");
    await startStep('reference data', () => seedReferenceData(db));
    app.decorate('db', db);
    // A database handed in by the caller (tests) is closed by the caller.
    if (!given) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'database' },
);

/** Runs `step` on a database of one connection straight to PostgreSQL when the pool's URL differs. */
async function onDirectConnection<T>(db: Db, config: AppConfig, step: (db: Db) => Promise<T>): Promise<T> {
  const source = databaseSource(db);
  if (source?.kind !== 'postgres' || source.directUrl === source.url) return step(db);
  const direct = await openDatabase({ databaseUrl: source.directUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    return await step(direct);
  } finally {
    await direct.destroy();
  }
}
