/**
 * Global setup of the e2e project: builds the app once, fills a temporary SQLite store
 * with a seeded synthetic corpus for each deployment plus the real upstream records,
 * starts the local server over it and hands its origin to the tests as `baseUrl`.
 *
 * Environment:
 *   E2E_REUSE_DIST=1   serve the existing dist/ instead of building into a temp folder
 *   E2E_BASE_URL=url   test an already running server (no build, no store, no server)
 */
import { hostileRecords } from './hostile-records';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import './provided';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const realData = resolve(repoRoot, 'data/real');
export const corpusSize = 300;
/** Extra literature records, so a search can match over 2,000 of them (issue 4's download). */
export const litDownloadExtra = 2_200;
export const corpusSeed = 7;

/** Collects whatever a producer returns: an array, an iterable, an async iterable, or a promise of one. */
async function collect<T>(produced: unknown): Promise<T[]> {
  const value = await produced;
  if (value && typeof value === 'object' && Symbol.asyncIterator in value) {
    const items: T[] = [];
    for await (const item of value as AsyncIterable<T>) items.push(item);
    return items;
  }
  if (value && typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<T>)];
  throw new Error(`expected records, got ${typeof value}`);
}

function elapsed(start: number) {
  return `${((performance.now() - start) / 1000).toFixed(1)} s`;
}

export default async function setup(project: TestProject) {
  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/$/, ''));
    return;
  }

  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), 'records-e2e-'));
  const cleanups: (() => Promise<void> | void)[] = [() => rm(work, { recursive: true, force: true })];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error('[e2e] teardown:', error);
      }
    }
  };

  try {
    // 1. The app.
    let staticDir = resolve(repoRoot, 'dist');
    if (process.env.E2E_REUSE_DIST && existsSync(join(staticDir, 'index.html'))) {
      console.log(`[e2e] reusing ${staticDir}`);
    } else {
      staticDir = join(work, 'dist');
      const { build } = await import('vite');
      // vitest sets NODE_ENV=test, which would make Vite bundle React's development build:
      // test what users get.
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        await build({
          root: repoRoot,
          configFile: resolve(repoRoot, 'vite.config.ts'),
          logLevel: 'warn',
          mode: 'production',
          build: { outDir: staticDir, emptyOutDir: true },
        });
      } finally {
        process.env.NODE_ENV = nodeEnv;
      }
      console.log(`[e2e] app built into ${staticDir} (${elapsed(started)})`);
    }

    // 2. The store.
    const { deployments, deploymentByKey } = await import('../../src/deployments/registry');
    const { openStoreWriter, openStore } = await import('../../src/server/store/sqlite/sqlite');
    const { generateRecords } = await import('../../src/server/corpus/generate');
    const { readUpstreamFiles } = await import('../../src/server/import/files');
    const dbPath = join(work, 'records.db');
    const writer = openStoreWriter(dbPath);
    try {
      for (const deployment of deployments) {
        writer.put(deployment.key, await collect(generateRecords(deployment, corpusSize, { seed: corpusSeed })));
      }
      const dc1 = deploymentByKey('DC1')!;
      const lit = deploymentByKey('LIT')!;
      writer.put(
        dc1.key,
        await collect(
          readUpstreamFiles(dc1, [join(realData, 'dc-v1-geothermal-and-more-250.json'), join(realData, 'dc-v1-plasma-lab-209.json')]),
        ),
      );
      writer.put(lit.key, await collect(readUpstreamFiles(lit, [join(realData, 'lit-v1-datasets-40.json')])));
      // Enough literature for a whole-result-set download of over 2,000 records.
      writer.put(lit.key, await collect(generateRecords(lit, litDownloadExtra, { seed: corpusSeed, startId: 60_000_001 })));
      writer.put(lit.key, hostileRecords(lit));
    } finally {
      writer.close();
    }
    const store = openStore(dbPath);
    cleanups.push(() => store.close());

    // 3. The server.
    const { startServer } = await import('../../src/server/http/server');
    const server = await startServer({ store, port: 0, host: '127.0.0.1', staticDir });
    cleanups.push(() => server.close());
    console.log(`[e2e] server at ${server.url} (${elapsed(started)})`);
    project.provide('baseUrl', server.url.replace(/\/$/, ''));
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
