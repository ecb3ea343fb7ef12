import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppConfig } from '../config.js';
import { databaseSource, observeQueries } from '../db/database.js';
import { LOGIN_PAGE_ROUTE } from '../idp/realm.js';

/** Paths of the operator's endpoints (docs/observability.md); the fleet recipe's checks use them. */
export const operationsPaths = {
  live: '/health/live',
  ready: '/health/ready',
  metrics: '/metrics',
} as const;

/** How long the readiness check waits for the database before calling it down. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; changeListener: boolean; draining: boolean };
}

export interface Operations {
  /** The instance's metrics; undefined when METRICS_ENABLED is false. */
  readonly metrics: Registry | undefined;
  /** Set on SIGTERM: /health/ready answers 503 and responses close their connection. */
  readonly draining: boolean;
  startDraining(): void;
  readiness(): Promise<Readiness>;
  /** Adds /health/live, /health/ready and /metrics to `target` (this app, or the management server). */
  addRoutes(target: FastifyInstance): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    operations: Operations;
  }
}

/** Buckets of the request and query histograms, in seconds: 1 ms … 10 s. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** A sign-in form's answer, by its status (idp/login-routes.ts): what the throttle and the check said. */
function signInOutcome(status: number): string {
  if (status === 401) return 'refused';
  if (status === 429) return 'throttled';
  if (status === 400) return 'incomplete';
  if (status >= 500) return 'error';
  return status < 400 ? 'success' : 'other';
}

async function databaseAnswers(app: FastifyInstance): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      sql`select 1`.execute(app.db).then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What an operator and a load balancer see of an instance (issue 21 §1, docs/observability.md):
 * - /health/live: the process answers (restart it when not);
 * - /health/ready: it should get traffic: the database answers, the migrations ran (the app only
 *   starts after them), the change listener listens (the read caches are current), and it is not
 *   draining (SIGTERM; server.ts);
 * - /metrics: Prometheus text. Requests are counted by route pattern (never the raw URL, which
 *   carries customer ids) in one histogram; children are cached so a request costs one map lookup
 *   and one observe.
 * Registered after the database and the read caches, before the routes.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    let draining = false;
    const registry = config.metricsEnabled ? new Registry() : undefined;

    const readiness = async (): Promise<Readiness> => {
      const checks = {
        database: await databaseAnswers(app),
        migrations: true,
        changeListener: app.changeListenerUp(),
        draining,
      };
      return { ready: checks.database && checks.migrations && checks.changeListener && !draining, checks };
    };

    const addRoutes = (target: FastifyInstance) => {
      const opts = { config: { public: true }, schema: { hide: true }, logLevel: 'warn' as const };
      target.get(operationsPaths.live, opts, async (_request, reply) =>
        reply.header('cache-control', 'no-store').send({ status: 'up' }),
      );
      target.get(operationsPaths.ready, opts, async (_request, reply) => {
        const answer = await readiness();
        return reply
          .status(answer.ready ? 200 : 503)
          .header('cache-control', 'no-store')
          .send({ status: answer.ready ? 'ready' : 'not ready', ...answer });
      });
      if (registry)
        target.get(operationsPaths.metrics, opts, async (_request, reply) =>
          reply
            .header('cache-control', 'no-store')
            .type(registry.contentType)
            .send(await registry.metrics()),
        );
    };

    app.decorate('operations', {
      metrics: registry,
      get draining() {
        return draining;
      },
      startDraining() {
        draining = true;
      },
      readiness,
      addRoutes,
    } satisfies Operations);

    // While draining, every answer asks the client to open a new connection (to another instance).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (draining) reply.header('connection', 'close');
      done(null, payload);
    });

    if (!config.managementPort) addRoutes(app);
    if (!registry) return;

    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

    const requests = new Histogram({
      name: 'roadpass_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: BUCKETS,
      registers: [registry],
    });
    const signIns = new Counter({
      name: 'roadpass_sign_in_attempts_total',
      help: 'Sign-in form submissions by outcome (success, refused, throttled, incomplete, error)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });

    type Child = ReturnType<typeof requests.labels>;
    const children = new Map<string, Child>();
    const childOf = (method: string, route: string, status: number): Child => {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels(method, route, String(status));
        children.set(key, child);
      }
      return child;
    };
    // A callback hook, not an async one: no promise per request for a few synchronous lines.
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      // Unmatched paths (404s, scanners) share one label so they cannot blow up the series.
      const route = request.routeOptions.url ?? 'unmatched';
      childOf(request.method, route, reply.statusCode).observe(reply.elapsedTime / 1000);
      if (route === LOGIN_PAGE_ROUTE && request.method === 'POST') {
        signIns.labels(signInOutcome(reply.statusCode)).inc();
      }
      done();
    });

    const queries = new Histogram({
      name: 'roadpass_db_query_duration_seconds',
      help: 'Time of each database query, by whether it failed',
      labelNames: ['failed'] as const,
      buckets: BUCKETS,
      registers: [registry],
    });
    const ok = queries.labels('false');
    const failed = queries.labels('true');
    const stop = observeQueries(app.db, (seconds, error) => (error ? failed : ok).observe(seconds));
    app.addHook('onClose', async () => stop());

    const source = databaseSource(app.db);
    const pool = source?.kind === 'postgres' ? source.pool : undefined;
    new Gauge({
      name: 'roadpass_db_pool_connections',
      help: 'Connections of the PostgreSQL pool: total, idle, and requests waiting for one (none on PGlite)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'roadpass_db_pool_max',
      help: 'Most connections the pool opens (DATABASE_POOL_SIZE; 1 for embedded PGlite)',
      registers: [registry],
      collect() {
        this.set(source?.kind === 'postgres' ? config.databasePoolSize : 1);
      },
    });

    const caches = Object.entries(app.readCaches);
    new Counter({
      name: 'roadpass_read_cache_reads_total',
      help: 'Reads of the read caches by cache and result (hit, miss)',
      labelNames: ['cache', 'result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [cache, c] of caches) {
          this.inc({ cache, result: 'hit' }, c.hits);
          this.inc({ cache, result: 'miss' }, c.misses);
        }
      },
    });
    new Gauge({
      name: 'roadpass_read_cache_enabled',
      help: '1 while a read cache serves (the change listener listens), else 0',
      labelNames: ['cache'] as const,
      registers: [registry],
      collect() {
        for (const [cache, c] of caches) this.set({ cache }, c.enabled ? 1 : 0);
      },
    });
    new Gauge({
      name: 'roadpass_draining',
      help: '1 from SIGTERM until the instance stops',
      registers: [registry],
      collect() {
        this.set(draining ? 1 : 0);
      },
    });
  },
  { name: 'operations', dependencies: ['database', 'read-caches'] },
);
