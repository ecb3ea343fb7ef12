import fp from 'fastify-plugin';
import type { AppConfig } from '../config.js';
import { openDatabase, type Db } from '../db/database.js';
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
        }),
      ));
    await startStep('database migrations', () => migrateToLatest(db));
    await startStep('reference data', () => seedReferenceData(db));
    app.decorate('db', db);
    // A database handed in by the caller (tests) is closed by the caller.
    if (!given) app.addHook('onClose', async () => db.destroy());
  },
  { name: 'database' },
);
