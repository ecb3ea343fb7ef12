#!/usr/bin/env node
// npm run test:alerts: the operator's alerting rules (deploy/prometheus/roadpass-alerts.yml) and the
// Grafana dashboard (deploy/grafana/) against Prometheus's own promtool and a running server:
//   1. `promtool check rules` and `promtool test rules` (the unit tests in roadpass-alerts.test.yml:
//      each alert fires on the series that should raise it, and none on a healthy fleet);
//   2. the built server started with a management port, a few requests sent, its /metrics scraped:
//      `promtool check metrics` finds nothing wrong with Roadpass's own metrics, and every metric the
//      rules and the dashboard name is one the server exports, with the labels they select on.
// Installs Debian's prometheus package (for promtool) when it is missing. Needs a build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensurePackages, freePort } from './fleet/fleet.mjs';
import { spawnServer } from './spawn-server.mjs';
import { waitFor } from './wait-for-url.mjs';

const root = path.resolve(import.meta.dirname, '..');
const rulesDir = path.join(root, 'deploy/prometheus');
const rulesFile = path.join(rulesDir, 'roadpass-alerts.yml');
const dashboardFile = path.join(root, 'deploy/grafana/roadpass-dashboard.json');

const problems = [];
const check = (ok, text) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  if (!ok) problems.push(text);
};
const promtool = (args, input) =>
  execFileSync('promtool', args, { cwd: rulesDir, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
const promtoolResult = (args, input) => {
  try {
    return { ok: true, output: promtool(args, input) };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` };
  }
};

ensurePackages(console.log, { promtool: 'prometheus' });

// 1. The rules, by Prometheus's own tool.
for (const args of [
  ['check', 'rules', 'roadpass-alerts.yml'],
  ['test', 'rules', 'roadpass-alerts.test.yml'],
]) {
  const { ok, output } = promtoolResult(args);
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
const lint = promtoolResult(['check', 'metrics'], scrape);
const ours = lint.output.split('\n').filter((line) => line.trim() && !/^(nodejs|process)_/.test(line.trim()));
check(
  ours.length === 0,
  `promtool check metrics: nothing wrong with roadpass_* metrics${ours.length ? `:\n${ours.join('\n')}` : ''}`,
);

/** name → { type, labels: Set } from the exposition text. */
const exported = new Map();
for (const line of scrape.split('\n')) {
  const type = /^# TYPE (\S+) (\S+)/.exec(line);
  if (type) exported.set(type[1], { type: type[2], labels: new Set() });
}
for (const line of scrape.split('\n')) {
  const series = /^([a-zA-Z_:][\w:]*)\{([^}]*)\}/.exec(line);
  if (!series) continue;
  const metric = exported.get(series[1].replace(/_(bucket|count|sum)$/, '')) ?? exported.get(series[1]);
  for (const label of series[2].matchAll(/(\w+)="/g)) metric?.labels.add(label[1]);
}

/** PromQL's own words; every other name in an expression is a metric. */
const PROMQL_WORDS = new Set(
  (
    'sum count min max avg stddev stdvar topk bottomk quantile count_values group rate irate increase ' +
    'delta idelta deriv histogram_quantile absent absent_over_time abs ceil floor round clamp clamp_min ' +
    'clamp_max label_replace label_join vector scalar time changes resets sort sort_desc ' +
    'avg_over_time min_over_time max_over_time sum_over_time count_over_time quantile_over_time ' +
    'last_over_time by without on ignoring group_left group_right bool and or unless offset'
  ).split(' '),
);
/** Metrics Prometheus makes itself for every target. */
const SYNTHETIC = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);

/** Every metric a PromQL expression selects, with the label names its selector uses. */
function selectors(expr) {
  const found = [];
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\[[^\]]*\]/g, '');
  for (const match of bare.matchAll(/([a-zA-Z_:][\w:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, braces, call] = match;
    if (call || PROMQL_WORDS.has(name) || SYNTHETIC.has(name) || /^\d/.test(name)) continue;
    // A name right after `by (` or `without (` is a label, not a metric.
    const before = bare.slice(0, match.index);
    if (/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*$/.test(before)) continue;
    const labels = [...(braces ?? '').matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]);
    found.push({ name, labels });
  }
  return found;
}

const rulesText = readFileSync(rulesFile, 'utf8');
const expressions = [
  ...[...rulesText.matchAll(/expr: \|\n((?: {10}.*\n)+)|expr: (.+)/g)].map((m) => ({
    where: 'roadpass-alerts.yml',
    expr: m[1] ?? m[2],
  })),
  ...JSON.stringify(JSON.parse(readFileSync(dashboardFile, 'utf8')))
    .match(/"expr":"(?:[^"\\]|\\.)*"/g)
    .map((m) => ({ where: 'roadpass-dashboard.json', expr: JSON.parse(`{${m}}`).expr })),
];
const named = new Map();
for (const { where, expr } of expressions)
  for (const { name, labels } of selectors(expr)) {
    const entry = named.get(name) ?? { where: new Set(), labels: new Set() };
    entry.where.add(where);
    for (const label of labels) if (!['job', 'instance', 'le'].includes(label)) entry.labels.add(label);
    named.set(name, entry);
  }
check(named.size >= 10, `the rules and the dashboard name ${named.size} metrics`);
for (const [name, { where, labels }] of named) {
  const base = name.replace(/_(bucket|count|sum)$/, '');
  const metric =
    exported.get(name) ?? (exported.get(base)?.type === 'histogram' ? exported.get(base) : undefined);
  const missingLabels = [...labels].filter(
    (label) => metric && metric.labels.size > 0 && !metric.labels.has(label),
  );
  check(
    metric !== undefined && missingLabels.length === 0,
    `${name} (${[...where].join(', ')}): ${
      metric === undefined
        ? 'the server exports no such metric'
        : missingLabels.length
          ? `no label ${missingLabels.join(', ')}`
          : `exported (${metric.type})`
    }`,
  );
}

if (problems.length > 0) {
  console.error(`\n${problems.length} check(s) failed`);
  process.exit(1);
}
console.log('\nalert rules and dashboard: every check passed');
