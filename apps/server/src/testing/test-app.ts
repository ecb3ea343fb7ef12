import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { seedKey } from './template-database.js';
import { createTestDatabase, testDbTarget } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: AppConfig;
  /** postgres://… of the fresh database (for a second instance's own pool), or undefined on PGlite. */
  databaseUrl?: string | undefined;
  close(): Promise<void>;
}

/** The test configuration: what production would use, with test mode, demo data and short logs. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:8080', LOG_LEVEL: 'warn' }),
    ...overrides,
  };
}

/** Builds the real app on a fresh database (demo customers seeded), ready for `app.inject`. */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  existingDb?: Db,
  logStream?: BuildOptions['logStream'],
): Promise<TestApp> {
  const config = testConfig(overrides);
  // The run's template (global-setup.ts) when this app's start would write the same into it.
  const template = inject('templateDatabase');
  const copyOf =
    template && template.target === testDbTarget() && template.seedKey === seedKey(config)
      ? template
      : undefined;
  const database = existingDb ? undefined : await createTestDatabase({ ...(copyOf ? { copyOf } : {}) });
  const db = existingDb ?? database!.db;
  const app = await buildApp(config, { db, ...(logStream ? { logStream } : {}) });
  await app.ready();
  return {
    app,
    db,
    config,
    databaseUrl: database?.url,
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}
