#!/usr/bin/env node
// First-load JS of the app's first pages, from the Vite manifest of the last build (npm run build):
// the entry chunk and its static imports plus the lazy chunks that page needs and their static imports.
// - account home: the account-home route chunk;
// - loyalty status: the loyalty router chunk and the status route chunk it loads.
// Fails (exit 1) when any page is above the budget.
// Usage: node scripts/bundle-size.mjs [--json] [--dist=<build directory, default dist>]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1000;
const ACCOUNT_HOME_ROUTE = 'src/app/routes/account-home-route.tsx';
const LOYALTY_ROUTER = 'src/app/routes/loyalty/loyalty-routes.tsx';
const LOYALTY_STATUS_ROUTE = 'src/app/routes/loyalty/loyalty-status-route.tsx';

/** Each measured page: the lazy chunks it loads on top of the entry. */
const pages = [
  { name: 'account home', lazyChunks: [ACCOUNT_HOME_ROUTE] },
  { name: 'loyalty status', lazyChunks: [LOYALTY_ROUTER, LOYALTY_STATUS_ROUTE] },
];

const distArgument = process.argv.find((arg) => arg.startsWith('--dist='));
const dist = distArgument
  ? distArgument.slice('--dist='.length)
  : join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const missing = pages.flatMap((page) => page.lazyChunks).filter((key) => !manifest[key]);
if (!entryKey || missing.length > 0) {
  console.error(
    `bundle-size: ${entryKey ? missing.join(', ') : 'entry chunk'} missing from dist/.vite/manifest.json; build first.`,
  );
  process.exit(2);
}

/** A chunk and everything it imports statically, each once. */
function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) withStaticImports(imported, seen);
  return seen;
}

function measure(page) {
  let keys = withStaticImports(entryKey);
  for (const chunk of page.lazyChunks) keys = withStaticImports(chunk, keys);
  const chunks = [...keys].map((key) => {
    const file = manifest[key].file;
    const source = readFileSync(join(dist, file));
    return { chunk: file, raw: source.length, gzip: gzipSync(source, { level: 9 }).length };
  });
  const total = chunks.reduce((sum, c) => ({ raw: sum.raw + c.raw, gzip: sum.gzip + c.gzip }), {
    raw: 0,
    gzip: 0,
  });
  return { page: page.name, chunks, total, withinBudget: total.gzip <= BUDGET_BYTES };
}

const results = pages.map(measure);
const allWithinBudget = results.every((result) => result.withinBudget);

if (process.argv.includes('--json')) {
  // The account home stays at the top level (chunks, total) as before; every page is under `pages`.
  const [accountHome] = results;
  console.log(
    JSON.stringify(
      { budgetBytes: BUDGET_BYTES, chunks: accountHome.chunks, total: accountHome.total, pages: results },
      null,
      2,
    ),
  );
} else {
  const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
  for (const { page, chunks, total, withinBudget } of results) {
    console.log(`${page}:`);
    for (const c of chunks)
      console.log(`  ${c.chunk.padEnd(46)} ${kb(c.raw).padStart(11)} raw ${kb(c.gzip).padStart(10)} gzip`);
    console.log(
      `  ${`total first-load JS (${page})`.padEnd(46)} ${kb(total.raw).padStart(11)} raw ${kb(total.gzip).padStart(10)} gzip`,
    );
    console.log(`  budget ${kb(BUDGET_BYTES)} gzip: ${withinBudget ? 'ok' : 'EXCEEDED'}`);
  }
}
process.exit(allWithinBudget ? 0 : 1);
