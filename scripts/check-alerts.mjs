#!/usr/bin/env node
// npm run test:alerts: the operator's Prometheus setup (deploy/prometheus/: prometheus.yml, the alert
// rules roadpass-alerts.yml and fleet-alerts.yml) and the Grafana dashboard (deploy/grafana/) against
// Prometheus's own promtool and a running server:
//   1. `promtool check config` (the scrape configuration and both rule files) and `promtool test rules`
//      (the unit tests in *-alerts.test.yml: each alert fires on the series that should raise it, and
//      none on a healthy fleet);
//   2. the built server started with a management port, a few requests sent, its /metrics scraped:
//      `promtool check metrics` finds nothing wrong with Roadpass's own metrics, and every instance
//      metric the rules and the dashboard name is one the server exports, with the labels they select
//      on. The metrics of HAProxy, PgBouncer, PostgreSQL and the hosts are checked by the fleet test,
//      against those exporters on a running fleet (scripts/fleet/fleet-test.mjs).
// Installs Debian's prometheus package (for promtool) when it is missing. Needs a build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensurePackages, freePort } from './fleet/fleet.mjs';
import { checkExported, namedMetrics, parseExposition, promtool } from './prometheus-names.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const problems = [];
const check = (ok, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) problems.push(text);
};
ensurePackages(console.log, { promtool: 'prometheus' });

// 1. The rules, by Prometheus's own tool.
// `check config` checks prometheus.yml and the rule files it loads (roadpass-alerts.yml, fleet-alerts.yml).
for (const args of [
  ['check', 'config', 'prometheus.yml'],
  ['test', 'rules', 'roadpass-alerts.test.yml', 'fleet-alerts.test.yml'],
]) {
  const { ok, output } = promtool(args);
  check(ok, `promtool ${args.join(' ')}${ok ? '' : `:\n${output}`}`);
}

// 2. What a running server exports.
const [port, managementPort] = await Promise.all([freePort(), freePort()]);
const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-alerts-'));
const server = spawnServer(port, { DATA_DIR: dataDir, MANAGEMENT_PORT: String(managementPort) });
let scrape;
try {
  await waitFor(`http://127.0.0.1:${managementPort}/health/ready`);
  // A page, an API call without a token, an unknown path: request series with a few statuses.
  for (const url of ['/', '/api/customer/me', '/no-such-page']) await fetch(`http://127.0.0.1:${port}${url}`);
  scrape = await (await fetch(`http://127.0.0.1:${managementPort}/metrics`)).text();
} finally {
  server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}

// promtool's lint; prom-client's own default metrics (nodejs_*) keep their names, ours must pass.
const lint = promtool(['check', 'metrics'], scrape);
const lintProblems = lint.output
  .split('\n')
  .filter((line) => line.trim() && !/^(nodejs|process)_/.test(line.trim()));
check(
  lintProblems.length === 0,
  `promtool check metrics: nothing wrong with roadpass_* metrics${lintProblems.length ? `:\n${lintProblems.join('\n')}` : ''}`,
);

const named = namedMetrics();
const ours = new Map([...named].filter(([, { exporter }]) => exporter === 'roadpass'));
const fleetParts = [...named].filter(([, { exporter }]) => exporter !== 'roadpass');
check(ours.size >= 10, `the rules and the dashboard name ${ours.size} metrics of the instances`);
checkExported(ours, parseExposition(scrape), check, 'the server');
console.log(
  `(${fleetParts.length} metrics of HAProxy, PgBouncer, PostgreSQL and the hosts: checked against their exporters by the fleet test)`,
);

if (problems.length > 0) {
  console.error(`\n${problems.length} check(s) failed`);
  process.exit(1);
}
console.log('\nalert rules and dashboard: every check passed');
