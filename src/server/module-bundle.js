// @ts-check
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

/**
 * A TypeScript entry (the `records` command, a store worker) as one JavaScript module.
 * Started through tsx, the process and every worker would get a module-loader thread of its
 * own (Node runs loader hooks on a thread apart, a V8 isolate of some 25 MB each); bundled by
 * esbuild (what tsx uses underneath) the code loads as plain JavaScript.
 *
 * Each module keeps its own `import.meta.url`, so paths it resolves from its place in the
 * repository stay right inside the bundle. The file goes to the project's
 * node_modules/.cache, where the packages it imports resolve; its name is its content's hash,
 * so processes never share a half-written file or run stale code. Plain JavaScript, because
 * `bin/records.js` needs it before any TypeScript can load.
 */

const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/records-explorer/', import.meta.url));
/** Bundles of code no longer current are removed after this long (a server started on them may still respawn a worker). */
const keepMs = 7 * 24 * 3600 * 1000;

// A regex rather than the text itself, which this file's own bundle would rewrite.
const importMetaUrl = /\bimport\.meta\.url\b/g;

/** @type {import('esbuild').Plugin} */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(plugin) {
    plugin.onLoad({ filter: /\.[jt]sx?$/ }, (file) => ({
      contents: readFileSync(file.path, 'utf8').replace(importMetaUrl, JSON.stringify(pathToFileURL(file.path).href)),
      loader: /** @type {'js' | 'ts' | 'tsx'} */ (file.path.endsWith('.tsx') ? 'tsx' : file.path.endsWith('.ts') ? 'ts' : 'js'),
    }));
  },
};

/** @type {Map<string, Promise<URL>>} */
const bundles = new Map();
/** One build at a time: esbuild's service is stopped after each, which would fail a build under way. */
let builds = Promise.resolve();

/**
 * The URL of `entry` bundled (a `.ts` entry) or `entry` itself (JavaScript already).
 * @param {URL} entry
 * @returns {Promise<URL>}
 */
export function bundledModule(entry) {
  if (!entry.pathname.endsWith('.ts')) return Promise.resolve(entry);
  let bundle = bundles.get(entry.href);
  if (!bundle) {
    bundle = builds.then(() => bundleOf(entry));
    builds = bundle.then(
      () => undefined,
      () => undefined,
    );
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

/** @param {URL} entry */
async function bundleOf(entry) {
  try {
    const { outputFiles } = await build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      plugins: [ownModuleUrls],
      write: false,
    });
    const code = outputFiles[0]?.contents;
    if (!code) throw new Error(`esbuild wrote no bundle for ${entry.pathname}`);
    const name = `${entry.pathname.split('/').pop()?.replace(/\.ts$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const file = join(cacheDir, name);
    if (!existsSync(file)) {
      mkdirSync(cacheDir, { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, file);
      for (const other of readdirSync(cacheDir)) {
        const path = join(cacheDir, other);
        if (other !== name && Date.now() - statSync(path).mtimeMs > keepMs) rmSync(path, { force: true });
      }
    }
    return pathToFileURL(file);
  } finally {
    // Otherwise esbuild's child process stays for the life of the server.
    await stop();
  }
}
