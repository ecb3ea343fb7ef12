import type { Plugin } from 'vite';

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
