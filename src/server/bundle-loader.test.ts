import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundle } from './bundle-loader.cjs';
import { bundleThread } from './bundle-thread.js';
import { bundledModule } from './module-bundle.js';

/**
 * A bundle (module-bundle.js) runs from the code V8 compiled for it the last time, kept beside
 * it; a cache that is missing, stale or damaged costs a compile, never a start.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-bundle-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle of an entry written now, whose exports and thread behaviour the tests check. */
async function bundleOf(source: string): Promise<URL> {
  const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, source);
  return bundledModule(pathToFileURL(entry));
}

/** The code caches kept beside `bundle`. */
const cachesOf = (bundle: URL): string[] => {
  const file = fileURLToPath(bundle);
  return readdirSync(dirname(file))
    .filter((name) => name.startsWith(`${basename(file)}.`) && name.endsWith('.v8'))
    .map((name) => join(dirname(file), name));
};

/** What a thread running `bundle` first posts. */
async function firstMessage(bundle: URL, workerData?: unknown): Promise<unknown> {
  const thread = bundleThread(bundle, { workerData });
  try {
    return await new Promise((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
  } finally {
    await thread.terminate();
  }
}

describe('a bundle run from its code cache', () => {
  // Each run in a thread of its own, a V8 isolate that has compiled nothing yet, as a start's are.
  it('keeps the cache of its first run and runs the same from it, and from a damaged one', async () => {
    const bundle = await bundleOf(
      // A package left to Node (a native addon), required as the store's bundles require it.
      "import Database from 'better-sqlite3';\nimport { parentPort } from 'node:worker_threads';\n" +
        "const n = (new Database(':memory:').prepare('SELECT 4 * 10 AS n').get() as { n: number }).n;\n" +
        // Once the module has run, and its thread has kept its code.
        'setImmediate(() => parentPort!.postMessage(n));\n',
    );
    expect(cachesOf(bundle)).toEqual([]);
    expect(await firstMessage(bundle)).toBe(40);
    const [cache] = cachesOf(bundle);
    expect(cache, 'the first run keeps its compiled code').toBeDefined();
    const kept = readFileSync(cache!);
    expect(await firstMessage(bundle)).toBe(40);
    expect(readFileSync(cache!).equals(kept), 'a run from the cache leaves it as it was').toBe(true);

    writeFileSync(cache!, 'not code V8 compiled');
    expect(await firstMessage(bundle), 'a damaged cache is passed over').toBe(40);
    expect(readFileSync(cache!).subarray(0, 4).equals(kept.subarray(0, 4)), 'and written again').toBe(true);
  });

  it('runs in strict mode, as the ES modules it was made from', async () => {
    const bundle = await bundleOf('export const strict = (function (this: unknown) { return this === undefined; })();\n');
    expect(loadBundle(bundle).strict).toBe(true);
  });

  it('runs in a thread of its own with the thread’s data', async () => {
    const bundle = await bundleOf(
      "import { parentPort, workerData } from 'node:worker_threads';\nparentPort!.postMessage((workerData as number) * 2);\n",
    );
    expect(await firstMessage(bundle, 21)).toBe(42);
  });
});
