import type { Plugin, Rollup } from 'vite';
import { webBuildFiles } from '../../../packages/contracts/src/http-conventions';

/**
 * Adds `<link rel="modulepreload">` to index.html for chunks that start-up imports dynamically but
 * always needs before a signed-in page shows: the browser then fetches them beside the entry instead
 * of after it (a round trip less on a cold start: docs/performance.md#http2). Each is named by its
 * source file, relative to the app's root (`src/lib/oidc/dpop.ts`). scripts/bundle-size.mjs counts
 * what index.html preloads in every page's first-load JavaScript.
 */
export function preloadWithEntry(sources: string[]): Plugin {
  return {
    name: 'roadpass:preload-with-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const chunks = Object.values(context.bundle ?? {}).filter((output) => output.type === 'chunk');
        return sources.map((source) => {
          const chunk = chunks.find((output) => output.facadeModuleId?.endsWith(`/${source}`));
          if (!chunk) throw new Error(`preloadWithEntry: no chunk is built from ${source}`);
          return {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
            injectTo: 'head',
          };
        });
      },
    },
  };
}

/** The chunks of a build, and what one needs beside the entry: itself and its static imports. */
function chunksOf(bundle: Rollup.OutputBundle, fail: (message: string) => never) {
  const chunks = Object.values(bundle).filter(
    (output): output is Rollup.OutputChunk => output.type === 'chunk',
  );
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (fileName: string, seen = new Set<string>()) => {
    if (seen.has(fileName)) return seen;
    seen.add(fileName);
    for (const imported of byFile.get(fileName)?.imports ?? []) withImports(imported, seen);
    return seen;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) fail('no entry chunk');
  const loadedByEntry = withImports(entry.fileName);
  return {
    /** The files (`/assets/….js`) that the chunks built from `sources` need, less the entry's own. */
    beyondEntry(sources: string[]): string[] {
      const files = new Set<string>();
      for (const source of sources) {
        const chunk = chunks.find((output) => output.facadeModuleId?.endsWith(`/${source}`));
        if (!chunk) fail(`no chunk is built from ${source}`);
        withImports(chunk.fileName, files);
      }
      return [...files]
        .filter((file) => byFile.has(file) && !loadedByEntry.has(file))
        .map((file) => `/${file}`);
    },
  };
}

/**
 * For some addresses the chunks their page needs are known before the entry runs: the server adds
 * `<link rel="modulepreload">`s for them to that address's index.html, so that a cold start fetches
 * them beside the entry instead of after it (docs/performance.md, "From the HTML to the status
 * content"). `table` maps an address (the page's path; its sub-paths too, the longest match wins) to
 * source files, on top of those of the addresses above it; each chunk comes with its static imports,
 * less what the entry loads anyway. Written
 * as webBuildFiles.addressPreloads: { address: ["/assets/…js", …] }. scripts/bundle-size.mjs counts them in
 * those pages' first load.
 */
export function preloadByAddress(table: Record<string, string[]>): Plugin {
  return {
    name: 'roadpass:preload-by-address',
    apply: 'build',
    // After Vite's own generateBundle hooks, which drop the chunks that held only CSS.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = chunksOf(bundle, (message) => this.error(`preloadByAddress: ${message}`));
        const within = (address: string, parent: string) =>
          address === parent || address.startsWith(`${parent}/`);
        const preloads: Record<string, string[]> = {};
        for (const address of Object.keys(table))
          preloads[address] = chunks.beyondEntry(
            Object.entries(table).flatMap(([parent, own]) => (within(address, parent) ? own : [])),
          );
        this.emitFile({
          type: 'asset',
          fileName: webBuildFiles.addressPreloads,
          source: JSON.stringify(preloads),
        });
      },
    },
  };
}

/**
 * What a start without a token in the tab needs before anything else: the sign-in client's chunk
 * (oidc-client-ts, 17 kB gzip), which a tab with a token loads only after its page shows. The
 * server's script in the HTML of the addresses that sign in preloads them when sessionStorage holds
 * no token (decision 0072). Written as webBuildFiles.signedOutPreloads: ["/assets/…js", …]. Not counted in
 * the pages' first load by scripts/bundle-size.mjs, which measures a start with a token, as before.
 */
export function preloadWhenSignedOut(sources: string[]): Plugin {
  return {
    name: 'roadpass:preload-when-signed-out',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = chunksOf(bundle, (message) => this.error(`preloadWhenSignedOut: ${message}`));
        this.emitFile({
          type: 'asset',
          fileName: webBuildFiles.signedOutPreloads,
          source: JSON.stringify(chunks.beyondEntry(sources)),
        });
      },
    },
  };
}
