// @ts-check
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { Worker, threadId } from 'node:worker_threads';

/**
 * Runs a bundle of module-bundle.js, in this thread or in a new one, from V8's code cache.
 *
 * Every thread of the server compiles a megabyte or two of code as it starts, and a start
 * runs four workers beside the main thread on a machine that may have two cores. Loaded as an
 * ES module, V8 compiles it anew each time; loaded as a script, it can be given the code V8
 * compiled the last time (`cachedData`), which V8 uses only if its own version and flags and
 * the source's length match (the cache is named after its bundle, whose name is a hash of its
 * content, so it never meets other code). So a bundle is CommonJS, run here through a
 * `vm.Script` the way Node runs a CommonJS file, and beside it is kept the code cache of its
 * first run. Node's own cache of compiled modules (`module.enableCompileCache`) came after
 * Node 20.
 *
 * A bundle cannot `import()` a package left out of it: in Node 20 a script's dynamic import
 * needs an experimental flag or prints an experimental warning. Those packages are required.
 */

/**
 * Names a bundle's code cache: code compiled under other V8 flags (a start with `--cpu-prof`,
 * another Node) would be rejected, and written over, by each start that alternates with it.
 */
const compiledHere = createHash('sha256')
  .update(`${process.version} ${process.execArgv.join(' ')}`)
  .digest('hex')
  .slice(0, 12);

/** The thread entry that runs the bundle named by its last argument. */
const threadEntry = new URL('./bundle-thread.js', import.meta.url);

/**
 * Runs `bundle` (a file URL from `bundledModule`) in this thread and returns its exports.
 * @param {URL} bundle
 * @returns {Record<string, unknown>}
 */
export function loadBundle(bundle) {
  const file = fileURLToPath(bundle);
  const cacheFile = `${file}.${compiledHere}.v8`;
  /** @type {Buffer | undefined} */
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // Not compiled here yet.
  }
  // As Node wraps a CommonJS file, in strict mode as the ES modules the bundle was made from are.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {'use strict';${readFileSync(file, 'utf8')}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  // After the module has run, so the functions its start ran are in the cache too.
  if (!cachedData || script.cachedDataRejected) keepCodeCache(cacheFile, script.createCachedData());
  return module.exports;
}

/**
 * A worker thread running `bundle`, with `Worker`'s options.
 * @param {URL} bundle
 * @param {import('node:worker_threads').WorkerOptions} [options]
 */
export function bundleThread(bundle, options = {}) {
  return new Worker(threadEntry, { ...options, argv: [...(options.argv ?? []), fileURLToPath(bundle)] });
}

/**
 * @param {string} cacheFile
 * @param {Buffer} code
 */
function keepCodeCache(cacheFile, code) {
  const partial = `${cacheFile}.${process.pid}-${threadId}.partial`;
  try {
    writeFileSync(partial, code);
    renameSync(partial, cacheFile);
  } catch {
    // A project it cannot write to compiles the bundle on each start, as before there was a cache.
    rmSync(partial, { force: true });
  }
}
