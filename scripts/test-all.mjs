#!/usr/bin/env node
// Runs every check and test suite of the repository and ends with one line: "N passed, N failed".
// Order: build and lint side by side (the browser tests run the built app); the server suite with the
// type check and the web and contract suites beside it (Vitest); the browser suite (Playwright) alone.
// Exits non-zero when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');

// The project runs and is tested on Node 24 LTS, installed from the npm registry into node_modules
// (decision 0009); `npm test` puts node_modules/.bin first on PATH, so every step below uses it.
const supportedMajor = 24;
if (Number(process.versions.node.split('.')[0]) !== supportedMajor) {
  console.error(
    `Node ${process.version} runs this script, but the project is tested on Node ${supportedMajor}: ` +
      'run it through `npm test` after `npm ci` (the `node` dev dependency provides Node 24).',
  );
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log(`Node ${process.version} (${process.execPath})`);
const reports = path.join(root, '.reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const results = [];
let failedSteps = 0;

/** The line that ends a step: its outcome and how long it took. */
function ended(title, status, signal, started) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`=== ${title}: ${status === 0 ? 'ok' : `FAILED (exit ${status ?? signal})`} in ${seconds} s`);
  return status === 0;
}

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return ended(title, result.status, result.signal ?? result.error?.message, started);
}

function step(title, command, args) {
  if (!run(title, command, args)) failedSteps += 1;
}

/**
 * Steps run side by side: each one's output is printed whole when it ends, so the log reads as if they
 * ran one after the other. A step is a check (below) or a vitest suite (vitestSuite); its `collect`
 * gets whether the command succeeded and returns the suite's result, if it has one. The results come
 * back in the order of the steps, whichever ended first.
 */
async function stepsSideBySide(steps) {
  const outcomes = await Promise.all(
    steps.map(
      ({ title, command, args, collect }) =>
        new Promise((resolve) => {
          const started = Date.now();
          let output = '';
          let done = false;
          const finish = (status, signal) => {
            if (done) return;
            done = true;
            console.log(`\n=== ${title}: ${command} ${args.join(' ')}\n${output.trimEnd()}`);
            resolve(collect(ended(title, status, signal, started)));
          };
          const child = spawn(command, args, { cwd: root, env: process.env });
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          // A command that cannot start fails its step ('close' may or may not follow 'error').
          child.on('error', (error) => finish(null, error.message));
          child.on('close', finish);
        }),
    ),
  );
  results.push(...outcomes.filter(Boolean));
}

/** A check (build, lint, types) as a step of stepsSideBySide: a failure counts as a failed step. */
const check = (title, command, args) => ({
  title,
  command,
  args,
  collect: (ok) => {
    if (!ok) failedSteps += 1;
  },
});

/** A vitest suite as a step of stepsSideBySide: its JSON report gives the tests passed and failed. */
function vitestSuite(name, dir) {
  const out = path.join(reports, `${name}.json`);
  return {
    title: `tests: ${name}`,
    command: 'npx',
    args: ['vitest', 'run', '--root', dir, '--reporter=default', '--reporter=json', `--outputFile=${out}`],
    collect: (ok) => {
      if (!existsSync(out)) return { name, passed: 0, failed: 1, note: 'suite crashed before reporting' };
      const report = JSON.parse(readFileSync(out, 'utf8'));
      const failed = report.numFailedTests + (ok || report.numFailedTests > 0 ? 0 : 1);
      const failures = report.testResults.flatMap((file) =>
        file.assertionResults
          .filter((test) => test.status === 'failed')
          .map((test) => ({
            where: `${path.relative(root, file.name)} › ${test.fullName}`,
            why: test.failureMessages?.[0],
          })),
      );
      return {
        name,
        passed: report.numPassedTests,
        failed,
        skipped: report.numPendingTests + report.numTodoTests,
        failures,
      };
    },
  };
}

function playwrightSuite() {
  const out = path.join(reports, 'e2e.json');
  const ok = run(
    'tests: browser (Playwright, Chromium)',
    'npx',
    ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    },
  );
  if (!existsSync(out))
    return results.push({ name: 'e2e', passed: 0, failed: 1, note: 'suite crashed before reporting' });
  const { stats, suites } = JSON.parse(readFileSync(out, 'utf8'));
  const failed = stats.unexpected + (ok || stats.unexpected > 0 ? 0 : 1);
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected')
          failures.push({
            where: `${spec.file}:${spec.line} [${test.projectName}] › ${[...titles, spec.title].join(' › ')}`,
            why: test.results?.at(-1)?.error?.message,
          });
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) walk(suite, []);
  results.push({
    name: 'e2e',
    passed: stats.expected + stats.flaky,
    failed,
    skipped: stats.skipped,
    failures,
  });
}

// Side by side where nothing is shared and a core would wait: ESLint reads only the sources, so it runs
// beside the build; the type check (one core) and the web and contract suites fit into the time the
// server suite's files spend waiting on child processes, restarts and timers (decision 0003, update of
// 29 Nov, noon). The browser suite runs alone: it keeps both cores busy.
await stepsSideBySide([check('build', 'npm', ['run', 'build']), check('lint', 'npm', ['run', 'lint'])]);
await stepsSideBySide([
  vitestSuite('contracts', 'packages/contracts'),
  vitestSuite('server', 'apps/server'),
  vitestSuite('web', 'apps/web'),
  check('typecheck', 'npm', ['run', 'typecheck']),
]);
playwrightSuite();
step('bundle size budget', 'npm', ['run', 'size']);

console.log('\nSummary');
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(10)} ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note ? ` (${r.note})` : ''}`,
  );
}
// The failed tests again at the end, where a CI log cut to its last lines still shows them.
for (const r of results)
  for (const failure of r.failures ?? []) {
    console.log(`  FAILED ${r.name}: ${failure.where}`);
    // The message's first lines, the expected and received values of a failed comparison included:
    // a failure that CI met once and this machine does not repeat is read from them (1 Dec: one line
    // said only "deep equality").
    const why = stripVTControlCharacters(failure.why ?? '')
      .split('\n')
      .filter((line) => line.trim())
      .slice(0, 16);
    for (const line of why) console.log(`         ${line.trimEnd().slice(0, 300)}`);
  }
if (failedSteps)
  console.log(`  ${failedSteps} check step(s) failed (build, lint, types or size): counted as failures`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0) + failedSteps;
const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
