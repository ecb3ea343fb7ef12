#!/usr/bin/env node
// First-load JS of the account home, from the Vite manifest of the last build (npm run build):
// the entry chunk and its static imports plus the lazy account-home route chunk and its static imports.
// Fails (exit 1) above the budget. Usage: node scripts/bundle-size.mjs [--json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1000;
const ACCOUNT_HOME_ROUTE = 'src/app/routes/account-home-route.tsx';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey || !manifest[ACCOUNT_HOME_ROUTE]) {
  console.error(
    'bundle-size: entry or account-home chunk missing from dist/.vite/manifest.json; build first.',
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

const keys = withStaticImports(ACCOUNT_HOME_ROUTE, withStaticImports(entryKey));
const chunks = [...keys].map((key) => {
  const file = manifest[key].file;
  const source = readFileSync(join(dist, file));
  return { chunk: file, raw: source.length, gzip: gzipSync(source, { level: 9 }).length };
});
const total = chunks.reduce((sum, c) => ({ raw: sum.raw + c.raw, gzip: sum.gzip + c.gzip }), {
  raw: 0,
  gzip: 0,
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ budgetBytes: BUDGET_BYTES, chunks, total }, null, 2));
} else {
  const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
  for (const c of chunks)
    console.log(`${c.chunk.padEnd(48)} ${kb(c.raw).padStart(11)} raw ${kb(c.gzip).padStart(10)} gzip`);
  console.log(
    `${'total first-load JS (account home)'.padEnd(48)} ${kb(total.raw).padStart(11)} raw ${kb(total.gzip).padStart(10)} gzip`,
  );
  console.log(`budget ${kb(BUDGET_BYTES)} gzip: ${total.gzip <= BUDGET_BYTES ? 'ok' : 'EXCEEDED'}`);
}
process.exit(total.gzip <= BUDGET_BYTES ? 0 : 1);
