// @ts-check
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { Script } = require('node:vm');
const { threadId } = require('node:worker_threads');

/**
 * Runs a bundle of module-bundle.js in this thread from V8's code cache; started as a worker
 * thread's entry (bundle-thread.js), runs the bundle named by the thread's last argument.
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
 * This file is CommonJS too: a worker thread whose entry is CommonJS never starts Node's ES
 * module loader, which every worker of a start would otherwise set up for this one file.
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

/**
 * Runs `bundle` (a file URL from `bundledModule`) in this thread and returns its exports.
 * @param {URL} bundle
 * @returns {Record<string, unknown>}
 */
function loadBundle(bundle) {
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

module.exports = { loadBundle };

if (require.main === module) loadBundle(pathToFileURL(/** @type {string} */ (process.argv.at(-1))));
