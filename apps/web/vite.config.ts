import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { precompress } from './build/precompress';
import { appPaths } from '../../packages/contracts/src/api-paths';
import { preloadByAddress, preloadWhenSignedOut, preloadWithEntry } from './build/preload-with-entry';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Where the Roadpass server runs in development; it serves the APIs, the identity provider and config.json. */
const serverOrigin = process.env.ROADPASS_SERVER ?? 'http://localhost:8080';

/**
 * The contracts package builds its schemas with typebox at module level, so any runtime import from a
 * schema file drags about 18 kB gzip of typebox into the bundle. The app imports only types and the
 * typebox-free modules (locales, legal entities, api paths); this guard fails the build if that slips.
 */
function forbidInBundle(packageName: string): Plugin {
  return {
    name: 'roadpass:forbid-in-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const offending = Object.entries(output.modules).find(
          ([id, module]) => id.includes(`/node_modules/${packageName}/`) && module.renderedLength > 0,
        );
        if (offending) {
          this.error(
            `${packageName} ended up in ${output.fileName} (${offending[0]}): import only types and typebox-free ` +
              'modules from @roadpass/contracts (see docs/decisions/0014-web-bundle-budget.md)',
          );
        }
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    forbidInBundle('typebox'),
    // The DPoP proof code (decision 0044): every signed-in start needs it before its first call.
    preloadWithEntry(['src/lib/oidc/dpop.ts']),
    // The loyalty pages: their router and the code that asks for a page's data beside the customer
    // (app/page-data.ts); the status page, the programme's first page, its own chunk too. A cold start
    // then fetches them beside the entry, not after it has run (docs/performance.md).
    preloadByAddress({
      [appPaths.loyaltyBase]: ['src/app/routes/loyalty/loyalty-routes.tsx', 'src/app/page-data.ts'],
      [`${appPaths.loyaltyBase}/status`]: ['src/app/routes/loyalty/loyalty-status-route.tsx'],
    }),
    // The sign-in client: a tab without a token needs it before anything else (the redirect to the
    // realm); the server's page script preloads it then, and only then (decision 0072).
    preloadWhenSignedOut(['src/lib/oidc/user-manager.ts']),
    precompress(),
  ],
  resolve: {
    alias: {
      '@roadpass/contracts': here('../../packages/contracts/src/index.ts'),
      '@': here('./src'),
    },
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The manifest lets scripts/bundle-size.ts find the entry and the account-home chunk.
    manifest: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks on the first load (docs/performance.md): left alone, Rolldown split the
        // entry's own modules into ~30 small shared chunks, each gzipped on its own (5 kB more on every
        // page). Everything the entry needs is one chunk; React Query's hooks, used by nearly every
        // page, one more; the loyalty pages' shared code (lib/loyalty) one for the loyalty router.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
            {
              name: 'server-data',
              test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/,
              priority: 2,
            },
            { name: 'loyalty-common', test: /src[\\/]lib[\\/]loyalty[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': serverOrigin,
      '/auth': serverOrigin,
      '/config.json': serverOrigin,
    },
  },
  preview: {
    proxy: {
      '/api': serverOrigin,
      '/auth': serverOrigin,
      '/config.json': serverOrigin,
    },
  },
});
