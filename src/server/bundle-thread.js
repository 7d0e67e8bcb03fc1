// @ts-check
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

/** bundle-loader.cjs, which run as a thread's entry runs the bundle named by its last argument. */
const threadEntry = new URL('./bundle-loader.cjs', import.meta.url);

/**
 * A worker thread running `bundle` (a file URL from `bundledModule`) from its code cache, with `Worker`'s options.
 * @param {URL} bundle
 * @param {import('node:worker_threads').WorkerOptions} [options]
 */
export function bundleThread(bundle, options = {}) {
  return new Worker(threadEntry, { ...options, argv: [...(options.argv ?? []), fileURLToPath(bundle)] });
}
