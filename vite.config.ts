import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { SummaryReporter } from './.ci/summary-reporter.js';
import { initialJsBudget } from './bench/vite-js-budget.js';
import { postgresUnavailable } from './src/server/store/postgres/cluster.test-support.js';

// The dev server forwards API, media and full-text requests to a records server, so the
// app runs against real data with `npm run dev` (start the server with `npm run records serve`).
const recordsServer = process.env.RECORDS_SERVER ?? 'http://127.0.0.1:8080';

// The HTTP suite is the store contract's conformance test: it runs again on PostgreSQL,
// reading from the primary and from a streaming replica (src/server/http/server-fixture.test-support.ts).
const storeDependentHttpTests = ['src/server/http/*.test.ts'];
const notStoreDependent = [
  'src/server/http/hardening-sockets.test.ts',
  'src/server/http/files.test.ts',
  'src/server/http/flow-control*.test.ts',
  'src/server/http/respond.test.ts',
];
// The app's component tests, which need a DOM (the `dom` project below).
const domTests = 'src/app/**/*.dom.test.{ts,tsx}';
// Files that replace a module (`vi.mock`, allowed only in them by the lint config): each gets a
// module graph of its own. Every other file shares its worker's modules with the files it ran
// before, which spares each file importing the server again (most of the unit projects' time
// went to that).
const isolatedTests = 'src/**/*.isolated.test.ts';
const nodeTests = { environment: 'node', testTimeout: 30_000, hookTimeout: 120_000 } as const;

const postgresSkipped = postgresUnavailable();
if (postgresSkipped && process.argv.includes('run')) console.log(`PostgreSQL conformance runs skipped: ${postgresSkipped}`);
const postgresProjects = postgresSkipped
  ? []
  : (['postgres', 'postgres-replica'] as const).flatMap((store) => {
      const onStore = {
        env: { RECORDS_TEST_STORE: store },
        globalSetup: ['src/server/store/postgres/global-setup.test-support.ts'],
        ...nodeTests,
      };
      return [
        {
          test: {
            name: store,
            include: storeDependentHttpTests,
            exclude: [...notStoreDependent, isolatedTests],
            isolate: false,
            ...onStore,
          },
        },
        {
          test: {
            name: `${store}-isolated`,
            include: storeDependentHttpTests.map((glob) => glob.replace('*.test.ts', '*.isolated.test.ts')),
            ...onStore,
          },
        },
      ];
    });

export default defineConfig({
  // The build fails when the initial JavaScript exceeds its gzip budget (bench/js-budget.ts).
  plugins: [react(), initialJsBudget()],
  server: {
    proxy: {
      '/api': recordsServer,
      '/media': recordsServer,
      '/files': recordsServer,
    },
  },
  resolve: {
    // react-router's package exports name only its development build, whose warnings and
    // checks then ship to every reader (remix-run/react-router#14102); its production build
    // sits beside it.
    alias: [
      {
        find: /^react-router$/,
        replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Small entry: the record page is a separate chunk (see src/app/shell/routes.tsx).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // zod and its jitless setting in one chunk: a chunk that builds schemas as it loads
        // (web storage, the API's schemas) runs after zod's chunk, so never before the setting.
        codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]zod-jitless\.ts$/ }] },
      },
    },
  },
  test: {
    reporters: ['default', new SummaryReporter()],
    // Vitest leaves one core to itself, which on two cores runs one file at a time; the server's
    // files spend much of their time waiting on the processes and threads they start, so two
    // at a time finish the unit projects sooner there too (the e2e project stays at one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, domTests, isolatedTests],
          isolate: false,
          ...nodeTests,
        },
      },
      { test: { name: 'unit-isolated', include: [isolatedTests], ...nodeTests } },
      {
        // Components rendered into a DOM (jsdom) and used through it as a person would, with
        // Testing Library: what is announced, what the URL becomes, which keys work.
        test: {
          name: 'dom',
          include: [domTests],
          isolate: false,
          environment: 'jsdom',
          globalSetup: ['src/server/http/dom-server.test-support.ts'],
          setupFiles: ['src/app/ui/dom-setup.test-support.ts'],
          testTimeout: 30_000,
        },
      },
      ...postgresProjects,
      {
        // Playwright (playwright-core) driving Debian Chromium against the built app and
        // the local server; e2e/setup/global-setup.ts builds, seeds and serves once.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // Each test has a browser context of its own; the files share their worker's modules.
          isolate: false,
          environment: 'node',
          globalSetup: ['e2e/setup/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One Chromium at a time on a two-core machine, after the unit project.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
