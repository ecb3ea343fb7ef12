import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import path from 'node:path';

/** Query keys follow one scheme: built by an area's `…Keys` object, never written out as an array. */
const literalQueryKey = {
  selector: "Property[key.name='queryKey'] > ArrayExpression",
  message: "Build query keys with the feature's `…Keys` object (its api/query-keys.ts), not a literal array.",
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.reports/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The webview host page's script: plain browser JavaScript served as it is (development only).
    files: ['apps/server/dev-assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The server's modules have one face each (decision 0001): nothing outside modules/<name>/ imports
    // any of its files but modules/<name>/index.ts. A module's own files, tests included, import each
    // other freely; a test in one module reaches another module through its face like any other file.
    files: ['apps/server/src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['apps/server/src/**/*'],
      'boundaries/elements': [
        { type: 'server-module', pattern: 'apps/server/src/modules/*', capture: ['moduleName'] },
        { type: 'server-lib', pattern: 'apps/server/src/lib' },
        { type: 'server-plugins', pattern: 'apps/server/src/plugins' },
        { type: 'server-idp', pattern: 'apps/server/src/idp' },
        { type: 'server-db', pattern: 'apps/server/src/db' },
        { type: 'server-cli', pattern: 'apps/server/src/cli' },
        { type: 'server-testing', pattern: 'apps/server/src/testing' },
        // app.ts, server.ts, config.ts and the whole server's tests. (Files directly in a folder are an
        // element only in the deprecated file mode; folder patterns do not match them.)
        { type: 'server-root', pattern: 'apps/server/src/*.ts', mode: 'file' },
      ],
      'import/resolver': { [path.resolve(import.meta.dirname, 'tools/eslint-alias-resolver.cjs')]: {} },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              disallow: [{ to: { element: { type: 'server-module', fileInternalPath: '!index.ts' } } }],
              message: 'Import a server module only through its face, modules/<name>/index.ts.',
            },
            {
              from: { element: { type: 'server-module' } },
              allow: [
                {
                  to: {
                    element: {
                      type: 'server-module',
                      captured: { moduleName: '{{from.element.captured.moduleName}}' },
                    },
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, boundaries },
    settings: {
      'boundaries/include': ['apps/web/src/**/*'],
      'boundaries/elements': [
        { type: 'app', pattern: 'apps/web/src/app' },
        { type: 'feature', pattern: 'apps/web/src/features/*', capture: ['featureName'] },
        { type: 'components', pattern: 'apps/web/src/components' },
        { type: 'lib', pattern: 'apps/web/src/(lib|config)' },
        { type: 'testing', pattern: 'apps/web/src/testing' },
      ],
      'import/resolver': { [path.resolve(import.meta.dirname, 'tools/eslint-alias-resolver.cjs')]: {} },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // One naming scheme for server-data keys: each feature's (and shared area's) keys are built in
      // one `…Keys` object (decision web-server-data), never written out where a query is declared.
      'no-restricted-syntax': ['error', literalQueryKey],
      // Arrows point one way: app → features → components → lib, config. Features stay apart: a
      // feature may use shared code and its own files, never another feature nor app/. Pages in app/
      // are where features meet.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: [
                {
                  to: {
                    element: {
                      type: 'feature',
                      captured: { featureName: '!{{from.element.captured.featureName}}' },
                    },
                  },
                },
              ],
              message: 'A feature must not import another feature; compose them in app/.',
            },
            {
              from: { element: { type: 'feature' } },
              disallow: [{ to: { element: { type: 'app' } } }],
              message: 'A feature must not import app/; what it needs of the app comes through lib/.',
            },
            {
              from: { element: { types: { anyOf: ['components', 'lib', 'testing'] } } },
              disallow: [{ to: { element: { type: 'feature' } } }, { to: { element: { type: 'app' } } }],
              message: 'Shared code must not import features or app.',
            },
            // lib/ and config/ sit below the components that show them.
            {
              from: { element: { type: 'lib' } },
              disallow: [{ to: { element: { type: 'components' } } }],
              message: 'lib/ and config/ must not import components/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature's query keys live in one file, its api/query-keys.ts (decision 0023).
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/features/*/api/query-keys.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        literalQueryKey,
        {
          selector: 'ExportNamedDeclaration VariableDeclarator[id.name=/Keys$/]',
          message: "A feature's query keys are declared in its api/query-keys.ts.",
        },
      ],
    },
  },
);
