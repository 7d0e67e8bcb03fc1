import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { initialJs, initialJsBudgetBytes } from './js-budget';
import { repoRoot } from './processes';
import { summarize, type Summary } from './stats';

/**
 * The app side of the benchmark: the production build's initial JavaScript (from the
 * Vite manifest) and the time from navigation to the first rendered result count in
 * Chromium, against the records server under test.
 */

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface AppSize {
  readonly files: string[];
  readonly rawBytes: number;
  readonly gzipBytes: number;
  readonly budgetBytes: number;
  readonly buildSeconds: number;
}

/** Builds into `outDir` (not dist/, which other tools use) with the manifest switched on. */
export async function buildApp(outDir: string): Promise<AppSize> {
  const started = performance.now();
  const { build } = await import('vite');
  await build({
    root: repoRoot,
    configFile: resolve(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const buildSeconds = (performance.now() - started) / 1000;
  const manifest = JSON.parse(readFileSync(resolve(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  // The manifest keys chunks by source; the graph below is keyed by output file.
  const byKey = new Map(Object.entries(manifest));
  const chunks = new Map<string, { code: Uint8Array; imports: string[] }>();
  const entries: string[] = [];
  for (const chunk of byKey.values()) {
    if (!chunk.file.endsWith('.js')) continue;
    chunks.set(chunk.file, {
      code: readFileSync(resolve(outDir, chunk.file)),
      imports: (chunk.imports ?? []).map((key) => byKey.get(key)?.file).filter((file): file is string => Boolean(file)),
    });
    if (chunk.isEntry) entries.push(chunk.file);
  }
  return { ...initialJs({ chunks, entries }), budgetBytes: initialJsBudgetBytes, buildSeconds };
}

/**
 * Notes the first moment the results count shows a number. A string, not a function:
 * tsx would wrap a function's inner declarations in helpers the page does not have.
 */
const firstResultsProbe = `
  new MutationObserver(() => {
    const status = document.querySelector('.results__count');
    if (window.__firstResults === undefined && status && /\\d/.test(status.textContent || '')) window.__firstResults = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface FirstResults extends Summary {
  readonly url: string;
  readonly countText: string;
  /** The uncounted first run (cold Chromium, cold static files). */
  readonly firstRunMs: number;
}

/**
 * Each run is a fresh browser context (empty cache, like a first visit). An init script
 * notes `performance.now()` (milliseconds since navigation start) when the results
 * count first shows a number, so the measurement does not depend on polling.
 */
export async function timeToFirstResults(origin: string, path: string, runs: number): Promise<FirstResults> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
  const times: number[] = [];
  let countText = '';
  let firstRunMs = Number.NaN;
  try {
    for (let run = 0; run < runs + 1; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.addInitScript({ content: firstResultsProbe });
      await page.goto(origin + path, { waitUntil: 'commit' });
      await page.waitForFunction(() => (globalThis as unknown as { __firstResults?: number }).__firstResults !== undefined, undefined, {
        timeout: 60_000,
      });
      const ms = await page.evaluate(() => (globalThis as unknown as { __firstResults: number }).__firstResults);
      countText = (await page.locator('.results__count').textContent()) ?? '';
      // The first run warms the server's file cache and Chromium's disk; it is not counted.
      if (run > 0) times.push(ms);
      else firstRunMs = Math.round(ms);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { url: path, countText, firstRunMs, ...summarize(times) };
}
