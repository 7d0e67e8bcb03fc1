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
// (src/app/main.tsx, the entry point, only mounts the shell.)
const appShared = ['ui', 'navigation', 'config'];

/** Element types of eslint-plugin-boundaries, first match wins. */
const elements = [
  { type: 'deployments', pattern: 'src/deployments' },
  { type: 'formats', pattern: 'src/formats' },
  { type: 'client', pattern: 'src/client' },
  { type: 'server', pattern: 'src/server' },
  { type: 'app-shared', pattern: `src/app/{${appShared.join(',')}}` },
  { type: 'app-pages', pattern: 'src/app/pages' },
  { type: 'app-shell', pattern: 'src/app/shell' },
  { type: 'app-feature', pattern: 'src/app/*', capture: ['feature'] },
];

/** Which element types each type may import (besides files of its own element). */
const allowed = {
  deployments: [],
  formats: ['deployments'],
  client: ['deployments', 'formats'],
  server: ['deployments', 'formats', 'client'],
  'app-shared': ['deployments', 'formats', 'client', 'app-shared'],
  'app-feature': ['deployments', 'formats', 'client', 'app-shared'],
  'app-pages': ['deployments', 'formats', 'client', 'app-shared', 'app-feature', 'app-pages'],
  'app-shell': ['deployments', 'formats', 'client', 'app-shared', 'app-feature', 'app-pages'],
};

const noNodeInBrowser = { group: ['node:*'], message: 'The app runs in the browser.' };
const recordTextMessage =
  'Read record fields with firstText/recordTexts (src/formats/record-text.ts) and show them with RichText or plainLine.';

const oneClientMessage = 'Send requests with getText (src/client/http.ts); page with followPages and retry with withRetry (src/client).';

const reactPackages = ['react', 'react-dom', 'react-dom/*', 'react-router', '@tanstack/react-query'];

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
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
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
    // The server never renders: React and the app's libraries stay out of it.
    files: ['src/server/**', 'src/formats/**', 'src/deployments/**', 'src/client/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: reactPackages, message: 'Only the app (src/app) renders.' }] }] },
  },
  {
    // The app runs in the browser: no Node built-ins.
    files: ['src/app/**', 'src/client/**', 'src/formats/**', 'src/deployments/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noNodeInBrowser] }] },
  },
  {
    // One HTTP client: the app, the export downloads and the harvester ask servers for anything
    // through src/client/http.ts (negotiation, token, errors, bounds), paging (pages.ts) and retry
    // (retry.ts). A second way to send a request is an error anywhere else in src. Exceptions:
    // tests and the servers' test fixtures, which probe raw HTTP on purpose; bench/ and e2e/
    // (outside src), which measure and drive the server from outside.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/client/**', '**/*.test.ts', '**/*.test.tsx', 'src/server/http/test-fixture.ts', 'src/server/harvest/test-source.ts'],
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
      ],
    },
  },
  {
    // Components show record fields only through the text model (src/formats/record-text.ts):
    // the raw reader and casts hand out strings React would render as stored (`&amp;` and all).
    files: ['src/app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noNodeInBrowser, { group: ['**/formats/text'], importNames: ['valuesOf'], message: recordTextMessage }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSAsExpression > MemberExpression.expression[object.name=/record$/i]', message: recordTextMessage },
        {
          selector: 'CallExpression[callee.name="String"] > MemberExpression.arguments[object.name=/record$/i]',
          message: recordTextMessage,
        },
      ],
    },
  },
);
