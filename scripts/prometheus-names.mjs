// The metrics that the operator's alert rules (deploy/prometheus/*-alerts.yml) and Grafana dashboard
// (deploy/grafana/) name, and a check that an exporter's scrape has each of them with the labels
// they select on. Used by `npm run test:alerts` (the instances' own metrics, against a running server)
// and the fleet test (HAProxy's, PgBouncer's, PostgreSQL's and the hosts' metrics, against the real
// exporters of a running fleet).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const ruleFiles = ['roadpass-alerts.yml', 'fleet-alerts.yml'].map((file) =>
  path.join(root, 'deploy/prometheus', file),
);
export const dashboardFile = path.join(root, 'deploy/grafana/roadpass-dashboard.json');

/** Runs Prometheus's promtool (in deploy/prometheus, `input` on its stdin): whether it passed, and what it printed. */
export function promtool(args, input) {
  try {
    const output = execFileSync('promtool', args, {
      cwd: path.join(root, 'deploy/prometheus'),
      input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error) };
  }
}

/** Which exporter a metric comes from, by its prefix: the instances' own (`roadpass`) or a fleet part's. */
export function exporterOf(name) {
  if (name.startsWith('haproxy_')) return 'haproxy';
  if (name.startsWith('pgbouncer_')) return 'pgbouncer';
  if (name.startsWith('pg_')) return 'postgres';
  // deploy/roadpass-backup.sh writes these for the node exporter's textfile collector.
  if (name.startsWith('node_') || name.startsWith('roadpass_backup_')) return 'node';
  return 'roadpass';
}

/** name → { type, labels: Set } from Prometheus's text format. */
export function parseExposition(text) {
  const exported = new Map();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) exported.set(type[1], { type: type[2], labels: new Set(), samples: [] });
  }
  for (const line of text.split('\n')) {
    const series = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)/.exec(line);
    if (!series) continue;
    const metric = exported.get(series[1].replace(/_(bucket|count|sum)$/, '')) ?? exported.get(series[1]);
    const labels = Object.fromEntries(
      [...(series[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    for (const label of Object.keys(labels)) metric?.labels.add(label);
    metric?.samples.push({ name: series[1], labels, value: Number(series[3]) });
  }
  return exported;
}

/** The value of one sample of a parsed scrape whose labels include `labels` (undefined when none). */
export function sampleValue(exported, name, labels = {}) {
  return exported
    .get(name)
    ?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
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
export function selectors(expr) {
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

/** Every expression of the rule files and the dashboard, with the file it is in. */
export function expressions() {
  const fromRules = ruleFiles.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/expr: \|\n((?: {10}.*\n)+)|expr: (.+)/g)].map((m) => ({
      where: path.basename(file),
      expr: m[1] ?? m[2],
    })),
  );
  const fromDashboard = JSON.stringify(JSON.parse(readFileSync(dashboardFile, 'utf8')))
    .match(/"expr":"(?:[^"\\]|\\.)*"/g)
    .map((m) => ({ where: path.basename(dashboardFile), expr: JSON.parse(`{${m}}`).expr }));
  return [...fromRules, ...fromDashboard];
}

/** name → { where: Set, labels: Set, exporter } for every metric the rules and the dashboard name. */
export function namedMetrics() {
  const named = new Map();
  for (const { where, expr } of expressions())
    for (const { name, labels } of selectors(expr)) {
      const entry = named.get(name) ?? { where: new Set(), labels: new Set(), exporter: exporterOf(name) };
      entry.where.add(where);
      for (const label of labels) if (!['job', 'instance', 'le'].includes(label)) entry.labels.add(label);
      named.set(name, entry);
    }
  return named;
}

/**
 * Checks each named metric against a parsed scrape: exported (a histogram's _bucket/_count/_sum as
 * its base name), with every label its selector uses. `check(ok, text)` records each outcome.
 */
export function checkExported(named, exported, check, exporter) {
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
          ? `${exporter} exports no such metric`
          : missingLabels.length
            ? `no label ${missingLabels.join(', ')}`
            : `exported by ${exporter} (${metric.type})`
      }`,
    );
  }
}
