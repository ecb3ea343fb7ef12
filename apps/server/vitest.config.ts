import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const contracts = fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url));
const postgresUrl = process.env.TEST_DATABASE_URL;

// The server suite runs on embedded PGlite always, and once more on a PostgreSQL server when
// TEST_DATABASE_URL is set (CI sets it), so both storage paths are tested on every landing.
const project = (name: string, target: string, exclude: string[] = []): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: ['src/**/*.test.ts'], exclude, env: { TEST_DB_TARGET: target } },
});

/**
 * Files whose subject does not depend on the storage: they build an app (or nothing) only to reach
 * logging, headers, limits, content or PGlite's own worker, and run once, on PGlite (decision 0003:
 * CI's time). Every file that reads or writes customers' data runs on both databases.
 */
const storageIndependent = [
  'src/db/pglite-worker.test.ts',
  'src/db/data-dir-lock.test.ts',
  'src/plugins/request-log.test.ts',
  'src/plugins/rate-limits.test.ts',
  'src/plugins/rate-limits-redis.test.ts',
  'src/modules/webview-host/**',
  'src/modules/content/**',
  'src/modules/loyalty/batch-lane.test.ts',
  'src/modules/loyalty/loyalty-rules.test.ts',
  'src/modules/loyalty/expiry-timer.test.ts',
  'src/idp/login-texts.test.ts',
  'src/lib/**',
  'src/config.test.ts',
  'src/config-docs.test.ts',
];

export default defineConfig({
  resolve: { alias: { '@roadpass/contracts': contracts } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's modules: every file builds its own app on its own database, and
    // loading the server's module graph (PGlite's WebAssembly, the identity provider) once per worker
    // instead of once per file halves the suite's time.
    isolate: false,
    maxWorkers: 2,
    projects: [
      project('server (pglite)', 'pglite'),
      ...(postgresUrl ? [project('server (postgresql)', 'postgres', storageIndependent)] : []),
    ],
  },
});
