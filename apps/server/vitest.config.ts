import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const contracts = fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url));
const postgresUrl = process.env.TEST_DATABASE_URL;

// The server suite runs on embedded PGlite always, and once more on a PostgreSQL server when
// TEST_DATABASE_URL is set (CI sets it), so both storage paths are tested on every landing.
const project = (name: string, target: string): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: ['src/**/*.test.ts'], env: { TEST_DB_TARGET: target } },
});

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
      ...(postgresUrl ? [project('server (postgresql)', 'postgres')] : []),
    ],
  },
});
