import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { buildApp } from '../app.js';
import { routePattern } from '../lib/route-pattern.js';
import { createTestApp, testConfig, type TestApp } from '../testing/test-app.js';
import { createTestDatabase } from '../testing/test-database.js';

describe('health and metrics (docs/observability.md)', { timeout: 120_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 180_000);
  afterAll(async () => t?.close());

  it('answers live and ready while the instance is up', async () => {
    const live = await t.app.inject({ url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'up' });

    const ready = await t.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      ready: true,
      checks: { database: true, migrations: true, changeListener: true, draining: false },
    });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const customer = '0f9d7c1e-0000-4000-8000-000000000001';
    for (let i = 0; i < 3; i++) await t.app.inject({ url: apiPaths.loyaltyHistory(customer) });
    await t.app.inject({ url: '/no/such/page/12345', headers: { accept: 'application/json' } });

    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).not.toContain(customer);
    expect(text).not.toContain('12345');
    const historyRoute = routePattern(apiPaths.loyaltyHistory, 'uuid');
    const count = new RegExp(
      `roadpass_http_request_duration_seconds_count\\{method="GET",route="${historyRoute.replace(/[/.]/g, '\\$&')}",status="401"\\} 3`,
    );
    expect(text).toMatch(count);
    for (const name of [
      'roadpass_db_query_duration_seconds_count',
      'roadpass_db_pool_max',
      'roadpass_read_cache_reads_total{cache="customers",result="hit"}',
      'roadpass_read_cache_enabled{cache="loyalty"} 1',
      'roadpass_loyalty_batch_lane_waiting 0',
      'roadpass_outbox_backlog{channel="email"}',
      'nodejs_eventloop_lag_p99_seconds',
      'roadpass_draining 0',
    ])
      expect(text).toContain(name);
  });

  it('has every metric the Grafana dashboard queries', async () => {
    const dashboard = await readFile(
      path.resolve(import.meta.dirname, '../../../../deploy/grafana/roadpass-dashboard.json'),
      'utf8',
    );
    // roadpass_backup_* are the node exporter's (deploy/roadpass-backup.sh writes them; the fleet test
    // checks them there, as scripts/prometheus-names.mjs's exporterOf says).
    const used = new Set(
      [...dashboard.matchAll(/\b((?:roadpass|nodejs)_[a-z0-9_]+)/g)]
        .map((m) => m[1]!.replace(/_(bucket|count|sum)$/, ''))
        .filter((name) => !name.startsWith('roadpass_backup_')),
    );
    expect(used.size).toBeGreaterThan(8);
    const text = (await t.app.inject({ url: '/metrics' })).body;
    for (const name of used) expect(text, name).toContain(`# TYPE ${name} `);
  });

  it('reports not ready while draining and asks clients to reconnect elsewhere', async () => {
    const app = await buildApp(testConfig(), { db: t.db });
    try {
      app.operations.startDraining();
      const ready = await app.inject({ url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not ready', ready: false, checks: { draining: true } });
      // It still serves everything else while the load balancer notices.
      const live = await app.inject({ url: '/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.headers.connection).toBe('close');
      expect((await app.inject({ url: '/metrics' })).body).toContain('roadpass_draining 1');
    } finally {
      await app.close();
    }
  });

  it('reports not ready when the database does not answer', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), { db: database.db });
    try {
      expect((await app.inject({ url: '/health/ready' })).statusCode).toBe(200);
      await database.drop();
      const ready = await app.inject({ url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ ready: false, checks: { database: false, draining: false } });
      expect((await app.inject({ url: '/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('serves no metrics when they are off, and nothing on the main port with a management port', async () => {
    const app = await buildApp(testConfig({ metricsEnabled: false, managementPort: 9000 }), { db: t.db });
    try {
      for (const url of ['/metrics', '/health/ready', '/health/live'])
        expect((await app.inject({ url, headers: { accept: 'application/json' } })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
