/**
 * Browser plumbing for the e2e specs: one Debian Chromium per worker, a fresh context
 * per test, and checks that run on every page (uncaught errors, CSP violations).
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import '../setup/provided';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Lets the media test start playback from a script.
  '--autoplay-policy=no-user-gesture-required',
];

export const desktop = { width: 1280, height: 900 } as const;
export const phone = { width: 390, height: 844 } as const;

export function baseUrl(): string {
  return inject('baseUrl');
}

/** Absolute URL of an app or API path on the server under test. */
export function url(path: string): string {
  return new URL(path, baseUrl() + '/').href;
}

export interface BrowserFixture {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Problems seen on the current test's pages: uncaught exceptions and CSP violations. */
  readonly problems: string[];
  /** Opens another context (for example with other options); closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * The worker's Chromium. The e2e files share their worker's modules (`isolate: false` in
 * vite.config.ts), so one browser serves every file the worker runs, each test in contexts of
 * its own; a browser that went away is launched again for the next file. Playwright ends it
 * when the worker exits.
 */
let running: Promise<Browser> | undefined;

function workerBrowser(): Promise<Browser> {
  running ??= chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }).then(
    (launched) => {
      launched.on('disconnected', () => (running = undefined));
      return launched;
    },
    (error: unknown) => {
      running = undefined;
      throw error;
    },
  );
  return running;
}

/**
 * Registers the hooks of a test file: the worker's Chromium, a new context and page for each
 * test, and a test fails when its pages threw or broke the CSP.
 */
export function useBrowser(options: BrowserContextOptions = {}): BrowserFixture {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let extra: BrowserContext[] = [];
  const problems: string[] = [];

  const contextOptions: BrowserContextOptions = {
    viewport: desktop,
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
    colorScheme: 'light',
    ...options,
  };

  const watch = (ctx: BrowserContext) => {
    ctx.on('weberror', (error) => problems.push(`uncaught: ${error.error().message}`));
    ctx.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
        problems.push(`CSP: ${message.text()}`);
      }
    });
  };

  beforeAll(async () => {
    browser = await workerBrowser();
  });
  afterAll(async () => {
    // Nothing a file opened outlives it: contexts left open (by a test that failed before its
    // own close) are closed with the file, not handed to the next one.
    for (const leftover of browser?.contexts() ?? []) await leftover.close().catch(() => {});
  });
  beforeEach(async () => {
    problems.length = 0;
    context = await browser!.newContext(contextOptions);
    watch(context);
    context.setDefaultTimeout(15_000);
    context.setDefaultNavigationTimeout(20_000);
    page = await context.newPage();
  });
  afterEach(async () => {
    const seen = [...problems];
    for (const ctx of [context, ...extra]) await ctx?.close().catch(() => {});
    extra = [];
    context = undefined;
    page = undefined;
    if (seen.length > 0) {
      throw new Error(`the page reported problems:\n  ${seen.join('\n  ')}`);
    }
  });

  return {
    get browser() {
      if (!browser) throw new Error('no browser: use the fixture inside a test');
      return browser;
    },
    get context() {
      if (!context) throw new Error('no context: use the fixture inside a test');
      return context;
    },
    get page() {
      if (!page) throw new Error('no page: use the fixture inside a test');
      return page;
    },
    problems,
    async newContext(more: BrowserContextOptions = {}) {
      const ctx = await browser!.newContext({ ...contextOptions, ...more });
      watch(ctx);
      extra.push(ctx);
      return ctx;
    },
  };
}
