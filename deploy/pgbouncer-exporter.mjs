#!/usr/bin/env node
// PgBouncer's pools and totals for Prometheus, read from its admin console on each scrape.
//
// Why this file exists (decision 0067): Debian 12's `prometheus-pgbouncer-exporter` (1.7) stops at
// start with `KeyError: 'total_requests'` against Debian 12's own PgBouncer (1.18 renamed that
// column), and the maintained Go exporter (prometheus-community/pgbouncer_exporter) is not packaged
// by Debian 12. This one speaks the same metric names as the community exporter, so the alert rules
// and the dashboard keep working when it replaces this file.
//
// Settings (environment):
//   PGBOUNCER_URL   the admin console, as a stats user: postgres://roadpass_monitor@127.0.0.1:6432/pgbouncer
//                   (the user is in pgbouncer.ini's stats_users: it may run SHOW, nothing else)
//   LISTEN_ADDRESS  host:port for /metrics (127.0.0.1:9127, PgBouncer exporters' usual port)
// Runs with the app's Node and its `pg` (deploy/roadpass-pgbouncer-exporter.service).
import http from 'node:http';
import pg from 'pg';

const url = process.env.PGBOUNCER_URL ?? 'postgres://roadpass_monitor@127.0.0.1:6432/pgbouncer';
const [host, port] = (process.env.LISTEN_ADDRESS ?? '127.0.0.1:9127').split(/:(?=\d+$)/);

/** SHOW POOLS column → gauge, per database and user. */
const POOL_GAUGES = [
  [
    'cl_active',
    'pgbouncer_pools_client_active_connections',
    'Client connections linked to a server connection',
  ],
  [
    'cl_waiting',
    'pgbouncer_pools_client_waiting_connections',
    'Client connections waiting for a server connection',
  ],
  ['sv_active', 'pgbouncer_pools_server_active_connections', 'Server connections linked to a client'],
  ['sv_idle', 'pgbouncer_pools_server_idle_connections', 'Server connections idle and ready for a client'],
  [
    'sv_used',
    'pgbouncer_pools_server_used_connections',
    'Server connections idle longer than server_check_delay',
  ],
  ['sv_login', 'pgbouncer_pools_server_login_connections', 'Server connections logging in'],
];
/** SHOW STATS column → counter, per database (times in microseconds, exported in seconds). */
const STATS_COUNTERS = [
  ['total_xact_count', 'pgbouncer_stats_sql_transactions_pooled_total', 'SQL transactions pooled', 1],
  ['total_query_count', 'pgbouncer_stats_queries_pooled_total', 'SQL queries pooled', 1],
  ['total_wait_time', 'pgbouncer_stats_client_wait_seconds_total', 'Time clients waited for a server', 1e-6],
  ['total_query_time', 'pgbouncer_stats_queries_duration_seconds_total', 'Time spent running queries', 1e-6],
  [
    'total_xact_time',
    'pgbouncer_stats_server_in_transaction_seconds_total',
    'Time server connections spent in a transaction',
    1e-6,
  ],
  ['total_received', 'pgbouncer_stats_received_bytes_total', 'Bytes received from clients', 1],
  ['total_sent', 'pgbouncer_stats_sent_bytes_total', 'Bytes sent to clients', 1],
];

const escape = (value) => String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escape(v)}"`)
    .join(',')}}`;

/** One family in Prometheus's text format. */
function family(name, type, help, samples) {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples.map(([l, v]) => `${name}${l} ${v}`)];
}

/** The exposition text: pgbouncer_up, and the pools and totals when the admin console answered. */
async function scrape() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 3000 });
  try {
    await client.connect();
    // The admin console speaks the simple query protocol only: queries without parameters.
    const pools = (await client.query('SHOW POOLS')).rows.filter((r) => r.database !== 'pgbouncer');
    const stats = (await client.query('SHOW STATS')).rows.filter((r) => r.database !== 'pgbouncer');
    const lines = family('pgbouncer_up', 'gauge', 'Whether the admin console answered', [['', 1]]);
    for (const [column, name, help] of POOL_GAUGES)
      lines.push(
        ...family(
          name,
          'gauge',
          help,
          pools.map((r) => [labels({ database: r.database, user: r.user }), Number(r[column])]),
        ),
      );
    lines.push(
      ...family(
        'pgbouncer_pools_client_maxwait_seconds',
        'gauge',
        'Age of the oldest waiting client',
        pools.map((r) => [
          labels({ database: r.database, user: r.user }),
          Number(r.maxwait) + Number(r.maxwait_us) / 1e6,
        ]),
      ),
    );
    for (const [column, name, help, scale] of STATS_COUNTERS)
      lines.push(
        ...family(
          name,
          'counter',
          help,
          stats.map((r) => [labels({ database: r.database }), Number(r[column]) * scale]),
        ),
      );
    return lines;
  } catch (error) {
    console.error(`pgbouncer-exporter: ${error.message}`);
    return family('pgbouncer_up', 'gauge', 'Whether the admin console answered', [['', 0]]);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The reading in progress, if any. */
let inFlight;

const server = http.createServer(async (req, res) => {
  if (req.method !== 'GET' || req.url !== '/metrics') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  const started = performance.now();
  // Scrapes that arrive together share one reading: one admin-console connection at a time.
  inFlight ??= scrape().finally(() => (inFlight = undefined));
  const lines = [...(await inFlight)];
  lines.push(
    ...family('pgbouncer_exporter_scrape_duration_seconds', 'gauge', 'How long reading PgBouncer took', [
      ['', (performance.now() - started) / 1000],
    ]),
  );
  res
    .writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
    .end(`${lines.join('\n')}\n`);
});
server.listen(Number(port), host, () => console.error(`pgbouncer-exporter: http://${host}:${port}/metrics`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
