import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startServer, type ServerProcess } from './testing/server-process.js';
import { createTestDatabase, testDbTarget } from './testing/test-database.js';

// Issue 21 §1 on the built server as a real process (docs/observability.md#shutdown): SIGTERM first
// turns the instance not ready while it keeps serving, then it drains and exits; health and metrics
// move to MANAGEMENT_PORT when set.

const running: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Storage for the server: a fresh PGlite folder, or a fresh database on the PostgreSQL server. */
async function storage(): Promise<Record<string, string>> {
  if (testDbTarget() === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-shutdown-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return { DATA_DIR: dataDir, DATABASE_URL: '' };
  }
  const database = await createTestDatabase();
  await database.db.destroy();
  cleanups.push(() => database.drop());
  return { DATABASE_URL: database.url!, DATABASE_POOL_SIZE: '5' };
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ ...(await storage()), ...env });
  running.push(server);
  return server;
}

describe('shutdown and the management port', { timeout: 180_000 }, () => {
  it('on SIGTERM reports not ready, keeps serving for the delay, then stops cleanly', async () => {
    const server = await start({ SHUTDOWN_DELAY_SECONDS: '3' });
    expect((await fetch(`${server.origin}/health/ready`)).status).toBe(200);

    const exit = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const sent = Date.now();
    server.child.kill('SIGTERM');
    await expect
      .poll(async () => (await fetch(`${server.origin}/health/ready`)).status, { timeout: 2_000 })
      .toBe(503);
    // Still serving during the delay, asking clients to reconnect (to another instance).
    const page = await fetch(`${server.origin}/config.json`);
    expect(page.status).toBe(200);
    expect(page.headers.get('connection')).toBe('close');
    const ready = await fetch(`${server.origin}/health/ready`);
    expect(await ready.json()).toMatchObject({ ready: false, checks: { draining: true, database: true } });

    expect(await exit).toBe(0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(3_000);
    await expect(fetch(`${server.origin}/health/live`)).rejects.toThrow();
  });

  it('serves health and metrics on MANAGEMENT_PORT, not on the main port', async () => {
    const port = await freePort();
    const server = await start({ MANAGEMENT_PORT: String(port) });
    const management = `http://127.0.0.1:${port}`;
    expect((await fetch(`${management}/health/live`)).status).toBe(200);
    expect((await fetch(`${management}/health/ready`)).status).toBe(200);
    await fetch(`${server.origin}/config.json`);
    const metrics = await (await fetch(`${management}/metrics`)).text();
    expect(metrics).toMatch(
      /roadpass_http_request_duration_seconds_count\{method="GET",route="\/config.json",status="200"\} \d+/,
    );
    expect(
      (await fetch(`${server.origin}/health/ready`, { headers: { accept: 'application/json' } })).status,
    ).toBe(404);
    // Percent-encoded, as a router decodes it: still not on the main port.
    expect((await fetch(`${server.origin}/%6detrics`)).status).toBe(404);
  });

  it('in production, warns at start when health and metrics share the main port', async () => {
    const production = { NODE_ENV: 'production', SEED_DEMO_DATA: 'false', LOG_LEVEL: 'info' };
    const shared = await start(production);
    await expect.poll(() => shared.output(), { timeout: 10_000 }).toContain('Roadpass is serving');
    expect(shared.output()).toContain('health and metrics answer on the main port: set MANAGEMENT_PORT');

    const separate = await start({ ...production, MANAGEMENT_PORT: String(await freePort()) });
    await expect.poll(() => separate.output(), { timeout: 10_000 }).toContain('Roadpass is serving');
    expect(separate.output()).not.toContain('MANAGEMENT_PORT');
  });
});
