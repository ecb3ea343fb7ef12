import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const contracts = fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url));
const postgresUrl = process.env.TEST_DATABASE_URL;

// Where each test file runs (decision 0003, update of 29 Nov):
// - without TEST_DATABASE_URL (a newcomer's machine), every file runs on embedded PGlite;
// - with it (CI sets it), every file that reads or writes data runs on the PostgreSQL server, and on
//   PGlite as well run the files whose subject is the embedded database's own behaviour (its worker,
//   data folder, start, kill -9, shutdown, listeners, big set-based statements, transactions) and the
//   whole-API checks (conventions, hostile input, route matrix). The SQL is the same on both (one
//   Kysely dialect); the browser suite runs the whole product on PGlite too.
const project = (
  name: string,
  target: string,
  include: string[],
  exclude: string[] = [],
): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include,
    exclude,
    env: { TEST_DB_TARGET: target },
    // Each project's template database, which its test apps start on copies of
    // (src/testing/template-database.ts).
    globalSetup: ['src/testing/global-setup.ts'],
  },
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

/**
 * Files that also run on PGlite when PostgreSQL is there: what they test is the embedded database's
 * own path (or the whole API at once), not only the SQL both databases share.
 */
const embeddedDatabaseSubjects = [
  'src/db/**',
  'src/process-safety.test.ts',
  'src/shutdown.test.ts',
  'src/cli/**',
  'src/idp/kysely-adapter.test.ts',
  'src/idp/provider-restart.test.ts',
  'src/plugins/read-caches.test.ts',
  'src/modules/loyalty/ledger-batch.test.ts',
  'src/modules/loyalty/expiry-job.test.ts',
  'src/modules/loyalty/internal-events.test.ts',
  'src/modules/data-rights/**',
  'src/modules/sessions/sessions.test.ts',
  'src/api-conventions.test.ts',
  'src/hostile-input.test.ts',
  'src/route-matrix.test.ts',
  'src/testing/template-database.test.ts',
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
    // Three files at a time on two cores: the slowest files mostly wait (child processes, restarts,
    // Redis, timers), and a third worker fills that time: 147 s against 164 s with two (29 Nov).
    maxWorkers: 3,
    projects: postgresUrl
      ? [
          project(
            'server (pglite)',
            'pglite',
            // A folder's test files, not every file in it.
            [...storageIndependent, ...embeddedDatabaseSubjects].map((glob) =>
              glob.endsWith('/**') ? `${glob}/*.test.ts` : glob,
            ),
          ),
          project('server (postgresql)', 'postgres', ['src/**/*.test.ts'], storageIndependent),
        ]
      : [project('server (pglite)', 'pglite', ['src/**/*.test.ts'])],
  },
});
