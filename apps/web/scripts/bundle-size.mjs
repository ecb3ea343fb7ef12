#!/usr/bin/env node
// First-load JavaScript of every page a visitor can land on first, from the Vite manifest of the last
// build: the entry chunk and its static imports, what index.html preloads beside it (the DPoP proof
// code: build/preload-with-entry.ts), plus the lazy route chunk of that page (and, for a loyalty
// page, the lazy loyalty router and what the server preloads at its address) with their static
// imports. Pages are found in the manifest,
// not listed by hand: every `src/app/routes/**/*-route.tsx` is one, so a new page is measured the day
// it is added. Sizes: raw, gzip -9 and brotli q11 (what the server sends, precompressed).
// Fails (exit 1) when any page is above the budget (gzip).
// Usage: node scripts/bundle-size.mjs [--json] [--dist=<build directory, default dist>]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// 125 kB since 1 Dec 2026: the count took in the DPoP chunk that every signed-in page had loaded
// before showing, uncounted, until index.html preloaded it (docs/decisions/0014-web-bundle-budget.md).
export const BUDGET_BYTES = 125 * 1000;
const ROUTES = /^src\/app\/routes\/(.+)-route\.tsx$/;
/**
 * oidc-client-ts: loaded after a signed-in page shows; in a tab without a token, preloaded beside the
 * entry to sign in (the page's script, decision 0072). Reported apart: the totals are a start with a token.
 */
const SIGN_IN_CLIENT = 'src/lib/oidc/user-manager.ts';
const LOYALTY_ROUTER = 'src/app/routes/loyalty/loyalty-routes.tsx';
/** appPaths.loyaltyBase: where the loyalty pages live. */
const LOYALTY_BASE = '/customer/loyalty-ui';

const distArgument = process.argv.find((arg) => arg.startsWith('--dist='));
const dist = distArgument
  ? distArgument.slice('--dist='.length)
  : join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const routeKeys = Object.keys(manifest)
  .filter((key) => ROUTES.test(key))
  .sort();
if (!entryKey || routeKeys.length === 0 || !manifest[LOYALTY_ROUTER]) {
  console.error(
    'bundle-size: entry, route or loyalty router chunks missing from dist/.vite/manifest.json; build first.',
  );
  process.exit(2);
}

/** The manifest key of a built file (`/assets/…js` or `assets/…js`). */
function keyOfFile(file, where) {
  const key = Object.keys(manifest).find((candidate) => manifest[candidate].file === file.replace(/^\//, ''));
  if (!key) {
    console.error(`bundle-size: ${where} names ${file}, which the manifest does not list`);
    process.exit(2);
  }
  return key;
}

/**
 * What the server preloads on some addresses beside the entry (build/preload-with-entry.ts:
 * preloadByAddress), as manifest keys; the longest address that is the page's or a parent wins.
 */
const addressPreloads = existsSync(join(dist, 'address-preloads.json'))
  ? JSON.parse(readFileSync(join(dist, 'address-preloads.json'), 'utf8'))
  : {};
function preloadedAt(address) {
  const match = Object.keys(addressPreloads)
    .filter((candidate) => address === candidate || address.startsWith(`${candidate}/`))
    .sort((a, b) => b.length - a.length)[0];
  return match ? addressPreloads[match].map((file) => keyOfFile(file, 'address-preloads.json')) : [];
}

/** Each page: a readable name and the lazy chunks it loads on top of the entry. */
const pages = routeKeys.map((key) => {
  const name = ROUTES.exec(key)[1]
    .replace(/^loyalty\/loyalty-/, 'loyalty ')
    .replace(/-/g, ' ');
  const loyaltyScreen = /^src\/app\/routes\/loyalty\/loyalty-(.+)-route\.tsx$/.exec(key)?.[1];
  return {
    name,
    lazyChunks: loyaltyScreen
      ? [
          LOYALTY_ROUTER,
          key,
          ...preloadedAt(`${LOYALTY_BASE}${loyaltyScreen === 'entry' ? '' : `/${loyaltyScreen}`}`),
        ]
      : [key],
  };
});

/** What index.html preloads beside the entry (`<link rel="modulepreload">`), as manifest keys. */
const preloaded = [
  ...readFileSync(join(dist, 'index.html'), 'utf8').matchAll(
    /<link rel="modulepreload"[^>]*href="\/([^"]+)"/g,
  ),
].map(([, file]) => keyOfFile(file, 'index.html'));

/** A chunk and everything it imports statically, each once. */
function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) withStaticImports(imported, seen);
  return seen;
}

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const source = readFileSync(join(dist, file));
    sizes.set(file, {
      raw: source.length,
      gzip: gzipSync(source, { level: 9 }).length,
      brotli: brotliCompressSync(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        },
      }).length,
    });
  }
  return sizes.get(file);
}

function measure(page) {
  let keys = withStaticImports(entryKey);
  for (const chunk of [...preloaded, ...page.lazyChunks]) keys = withStaticImports(chunk, keys);
  const chunks = [...keys].map((key) => ({
    chunk: manifest[key].file,
    ...sizeOf(manifest[key].file),
  }));
  const total = chunks.reduce(
    (sum, c) => ({
      raw: sum.raw + c.raw,
      gzip: sum.gzip + c.gzip,
      brotli: sum.brotli + c.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
  return {
    page: page.name,
    chunks,
    total,
    withinBudget: total.gzip <= BUDGET_BYTES,
  };
}

const results = pages.map(measure);
const allWithinBudget = results.every((result) => result.withinBudget);
const byName = (name) => results.find((result) => result.page === name);

if (process.argv.includes('--json')) {
  // The account home stays at the top level (chunks, total) as before; every page is under `pages`.
  const accountHome = byName('account home');
  console.log(
    JSON.stringify(
      {
        budgetBytes: BUDGET_BYTES,
        chunks: accountHome.chunks,
        total: accountHome.total,
        pages: results,
      },
      null,
      2,
    ),
  );
} else {
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  // The two pages most customers open first, chunk by chunk; then every page's total.
  for (const name of ['account home', 'loyalty status']) {
    const { chunks, total } = byName(name);
    console.log(`${name}:`);
    for (const c of chunks)
      console.log(
        `  ${c.chunk.padEnd(46)} ${kb(c.raw).padStart(9)} raw ${kb(c.gzip).padStart(9)} gzip ${kb(c.brotli).padStart(9)} br`,
      );
    console.log(
      `  ${'total'.padEnd(46)} ${kb(total.raw).padStart(9)} raw ${kb(total.gzip).padStart(9)} gzip ${kb(total.brotli).padStart(9)} br`,
    );
  }
  if (manifest[SIGN_IN_CLIENT]) {
    const file = manifest[SIGN_IN_CLIENT].file;
    const size = sizeOf(file);
    console.log(
      `\nloaded after a signed-in page shows, or beside the entry in a tab without a token (not in the totals):\n  ${file.padEnd(46)} ${kb(size.raw).padStart(9)} raw ${kb(size.gzip).padStart(9)} gzip ${kb(size.brotli).padStart(9)} br`,
    );
  }
  console.log(`\nfirst-load JS of every entry page (budget ${kb(BUDGET_BYTES)} gzip):`);
  for (const { page, total, withinBudget } of results) {
    console.log(
      `  ${page.padEnd(28)} ${kb(total.raw).padStart(9)} raw ${kb(total.gzip).padStart(9)} gzip ${kb(total.brotli).padStart(9)} br  ${withinBudget ? 'ok' : 'OVER BUDGET'}`,
    );
  }
}
process.exit(allWithinBudget ? 0 : 1);
