// @ts-check
// Lint: type-aware TypeScript rules, the rules of hooks, and the project's import boundaries
// (docs/architecture.md). `npm run lint`; part of `npm test`.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The app's folders that are not features: the shell (routes, layout) composes the pages, the
// pages compose the features, and the shared folders hold what several features use. Every
// other folder under src/app is a feature, which imports only itself and the shared folders.
// Every file under src/app belongs to one of them (the entry point, main.tsx, is in the shell).
const appShared = ['ui', 'navigation', 'config'];

/** Element types of eslint-plugin-boundaries, first match wins. */
const elements = [
  { type: 'deployments', pattern: 'src/deployments' },
  { type: 'formats', pattern: 'src/formats' },
  { type: 'client', pattern: 'src/client' },
  // The server's layers (docs/architecture.md): the query parser, the search engine, the
  // store over it, rendering of answers (below both the store's workers and http), the HTTP
  // layer, and the writers' sources (import, harvest, generated records); the CLI
  // (src/server/cli.ts) is on top of them all and imported by nothing. Caches by a budget of
  // bytes are below every layer that keeps something.
  { type: 'server-caches', pattern: 'src/server/caches' },
  { type: 'server-query', pattern: 'src/server/query' },
  { type: 'server-engine', pattern: 'src/server/engine' },
  { type: 'server-render', pattern: 'src/server/render' },
  { type: 'server-store', pattern: 'src/server/store' },
  { type: 'server-http', pattern: 'src/server/http' },
  { type: 'server-sources', pattern: 'src/server/{import,harvest,corpus}' },
  { type: 'app-shared', pattern: `src/app/{${appShared.join(',')}}` },
  { type: 'app-pages', pattern: 'src/app/pages' },
  { type: 'app-shell', pattern: 'src/app/shell' },
  { type: 'app-feature', pattern: 'src/app/*', capture: ['feature'] },
];

const isomorphic = ['deployments', 'formats'];

/** Which element types each type may import (besides files of its own element). */
const allowed = {
  deployments: [],
  formats: ['deployments'],
  client: isomorphic,
  'server-caches': [],
  'server-query': isomorphic,
  'server-engine': [...isomorphic, 'server-query', 'server-caches'],
  'server-render': isomorphic,
  'server-store': [...isomorphic, 'server-query', 'server-engine', 'server-render', 'server-caches'],
  'server-http': [...isomorphic, 'server-query', 'server-store', 'server-render', 'server-caches'],
  'server-sources': [...isomorphic, 'client', 'server-store', 'server-sources'],
  'app-shared': ['deployments', 'formats', 'client', 'app-shared'],
  'app-feature': ['deployments', 'formats', 'client', 'app-shared'],
  'app-pages': ['deployments', 'formats', 'client', 'app-shared', 'app-feature', 'app-pages'],
  'app-shell': ['deployments', 'formats', 'client', 'app-shared', 'app-feature', 'app-pages'],
};

const noNodeInBrowser = { group: ['node:*'], message: 'The app runs in the browser.' };
const recordTextMessage =
  'Read record fields with firstText/recordTexts (src/formats/record-text.ts) and show them with RichText or plainLine.';

const oneClientMessage = 'Send requests with getText (src/client/http.ts); page with followPages and retry with withRetry (src/client).';

// The app's data layer: a query's key comes from its feature's key factory (`*-keys.ts`), so no
// two shapes of answer share a key, and the one QueryClient, with the query defaults, from
// createQueryClient (src/app/config/query-client.ts).
const appDataSyntax = [
  {
    selector: 'Property[key.name="queryKey"] > ArrayExpression, Property[key.name="queryKey"] > TSAsExpression > ArrayExpression',
    message: "Build a query key with the feature's key factory (its *-keys.ts), not an inline array.",
  },
  {
    selector: 'NewExpression[callee.name="QueryClient"]',
    message: "Make the QueryClient with createQueryClient (src/app/config/query-client.ts), which holds the app's query defaults.",
  },
];

const reactPackages = ['react', 'react-dom', 'react-dom/*', 'react-router', '@tanstack/react-query'];

const noReactOutsideApp = { group: reactPackages, message: 'Only the app (src/app) renders.' };
const noTestSupport = {
  group: ['**/*.test-support', '**/*.test-support.*', '**/*.test', '**/*.test.*'],
  message: 'Tests and their support files (*.test-support.ts) are not shipped: production code never imports them.',
};
const recordTextOnly = { group: ['**/formats/text'], importNames: ['valuesOf'], message: recordTextMessage };
const testFiles = ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'];
const noCli = {
  group: ['**/server/cli', '**/server/cli.*', './cli', './cli.*', '../cli', '../cli.*'],
  message: 'The CLI is on top: nothing in src imports it.',
};

/** Import restrictions by file group; the groups are disjoint. */
const restrictedImports = [
  // The server never renders: React and the app's libraries stay out of it.
  { files: ['src/server/**'], patterns: [noReactOutsideApp, noTestSupport, noCli] },
  // Shared with the browser: no React, no Node built-ins.
  { files: ['src/client/**', 'src/formats/**', 'src/deployments/**'], patterns: [noReactOutsideApp, noNodeInBrowser, noTestSupport] },
  { files: ['src/app/**/*.ts'], patterns: [noNodeInBrowser, noTestSupport] },
  // Components show record fields only through the text model.
  { files: ['src/app/**/*.tsx'], patterns: [noNodeInBrowser, noTestSupport, recordTextOnly] },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'bench/tmp', 'bench/results', 'data', 'public', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // Functions are async to implement async interfaces (both stores behind one contract, the
      // fetch-like seams of tests) and so that a throw becomes a rejection callers await.
      '@typescript-eslint/require-await': 'off',
      // The parsers strip and reject control characters on purpose (total input parsing).
      'no-control-regex': 'off',
      // Record fields are unknown JSON: narrowing one leaves `{}`, which this rule cannot tell
      // from an object, and String() is the conversion the formats intend.
      '@typescript-eslint/no-base-to-string': 'off',
      // A URL or its query is written into messages and URLs as text on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allow: ['URL', 'URLSearchParams', 'Error'] }],
      // An aborted operation rejects with its signal's reason, and a caught value is passed on as
      // it was thrown: neither is ours to wrap.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Plain JavaScript: configuration and a benchmark baseline, checked without types.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS, which requires what it uses (bundle-loader.cjs says why it is CommonJS).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**'],
    rules: {
      // Tests read parsed JSON and library internals as `any` and then assert on their shape:
      // the assertion is the check.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Fixtures are written from generated values of any shape.
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Tests hand their fakes' methods over as callbacks; the fakes never use `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // A test file shares its worker's modules with the files before it (vite.config.ts): a module
    // it replaced would stay replaced for them, or come too late. Those files are named so.
    files: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.test.ts'],
    ignores: ['src/**/*.isolated.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock'].map((property) => ({
          object: 'vi',
          property,
          message: 'Replacing a module needs a file of its own module graph: name it *.isolated.test.ts.',
        })),
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The app is not built with the React Compiler: hand-written memoization stays as written.
      'react-hooks/preserve-manual-memoization': 'off',
    },
  },
  {
    files: ['src/**/*.{ts,tsx,js}'],
    // The server's tests reach across its layers on purpose (a store seeded by the importer, served over HTTP).
    ignores: ['src/server/**/*.test.ts', 'src/server/**/*.test-support.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...Object.entries(allowed).map(([from, to]) => ({
              from: { element: { type: from } },
              allow: { to: { element: { type: to } } },
            })),
            // A feature imports its own files, never another feature's.
            {
              from: { element: { type: 'app-feature' } },
              allow: { to: { element: { type: 'app-feature', captured: { feature: '{{ from.captured.feature }}' } } } },
            },
          ],
        },
      ],
    },
  },
  {
    // Every file of the app belongs to a layer, so none escapes the rules above.
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { boundaries },
    rules: { 'boundaries/no-unknown-files': 'error' },
  },
  // What each part of src may not import, in one table: ESLint keeps only the last matching
  // options of a rule, so every file group lists all of its restrictions here.
  ...restrictedImports.map(({ files, patterns }) => ({
    files,
    ignores: testFiles,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  })),
  {
    // One HTTP client: the app, the export downloads and the harvester ask servers for anything
    // through src/client/http.ts (negotiation, token, errors, bounds), paging (pages.ts) and retry
    // (retry.ts). A second way to send a request is an error anywhere else in src. Exceptions:
    // tests and the servers' test fixtures, which probe raw HTTP on purpose; bench/ and e2e/
    // (outside src), which measure and drive the server from outside.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/client/**', '**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: oneClientMessage },
        { name: 'XMLHttpRequest', message: oneClientMessage },
        { name: 'EventSource', message: oneClientMessage },
      ],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'window', 'self'].map((object) => ({ object, property: 'fetch', message: oneClientMessage })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?https?$/] > ImportSpecifier[imported.name=/^(request|get)$/]',
          message: oneClientMessage,
        },
        ...appDataSyntax,
      ],
    },
  },
  {
    // Components show record fields only through the text model (src/formats/record-text.ts):
    // the raw reader and casts hand out strings React would render as stored (`&amp;` and all).
    files: ['src/app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSAsExpression > MemberExpression.expression[object.name=/record$/i]', message: recordTextMessage },
        {
          selector: 'CallExpression[callee.name="String"] > MemberExpression.arguments[object.name=/record$/i]',
          message: recordTextMessage,
        },
        ...appDataSyntax,
      ],
    },
  },
  {
    // Any concern of the store fits on two screens (issue 40): a file of at most 250 lines, a
    // function of at most 80.
    files: ['src/server/store/**/*.ts'],
    ignores: testFiles,
    rules: {
      'max-lines': ['error', { max: 250 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
);
