// @ts-check
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A TypeScript entry (the `records` command, a store worker) as one JavaScript file, run by
 * bundle-loader.cjs (which is why it is CommonJS: see there).
 * Started through tsx, the process and every worker would get a module-loader thread of its
 * own (Node runs loader hooks on a thread apart, a V8 isolate of some 25 MB each); bundled by
 * esbuild (what tsx uses underneath) the code loads as plain JavaScript.
 *
 * Each module keeps its own `import.meta.url`, so paths it resolves from its place in the
 * repository stay right inside the bundle. The file goes to the project's
 * node_modules/.cache, where the packages it imports resolve; its name is its content's hash,
 * so processes never share a half-written file or run stale code. Plain JavaScript, because
 * `bin/records.js` needs it before any TypeScript can load.
 *
 * The packages it imports are bundled with it, but for those that cannot be (native addons)
 * or are loaded only when needed (`pg`): every thread of the server loads its own copy of the
 * code, and a package of many small modules (zod has dozens) cost each thread more to resolve
 * and load one by one than the same code in the bundle.
 *
 * Bundling takes a good part of a second, on every start of the server: so beside each bundle
 * is a list of the files it was made from with each one's size and modification time
 * (`<entry>-<hash of the entry's path>.inputs.json`), and a start whose files all still match
 * it loads the bundle it names without running esbuild. A changed, moved or removed file is a
 * mismatch, and the entry is bundled again.
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

/** Packages left to Node: native addons, esbuild (the bundler itself) and pg (required when a PostgreSQL store is opened). */
const external = ['better-sqlite3', 'lz4-napi', 'esbuild', 'pg'];

/** The bundles' module format; in the name of their lists of files, so a list never names a bundle of another format. */
const format = 'cjs';

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

/**
 * Where the list of `entry`'s files is kept.
 * @param {URL} entry
 */
const inputsFileOf = (entry) =>
  join(
    cacheDir,
    `${entry.pathname.split('/').pop()?.replace(/\.ts$/, '')}-${createHash('sha256').update(`${format} ${entry.href}`).digest('hex').slice(0, 16)}.inputs.json`,
  );

/**
 * Each file as the list keeps it: its path, size and modification time.
 * @param {string} path
 * @returns {[string, number, number]}
 */
const stampOf = (path) => {
  const stat = statSync(path);
  return [path, stat.size, stat.mtimeMs];
};

/**
 * The bundle made last from `entry`'s files, if none of them has changed since.
 * @param {URL} entry
 * @returns {URL | undefined}
 */
function unchangedBundle(entry) {
  try {
    const { bundle, inputs } = JSON.parse(readFileSync(inputsFileOf(entry), 'utf8'));
    const file = join(cacheDir, bundle);
    if (!existsSync(file)) return undefined;
    for (const [path, size, mtimeMs] of inputs) {
      const [, nowSize, nowMtimeMs] = stampOf(path);
      if (nowSize !== size || nowMtimeMs !== mtimeMs) return undefined;
    }
    return pathToFileURL(file);
  } catch {
    // No list yet, or a file of it gone: bundled again.
    return undefined;
  }
}

/** @param {URL} entry */
async function bundleOf(entry) {
  const unchanged = unchangedBundle(entry);
  if (unchanged) return unchanged;
  // Required, not imported: this file is in the bundles too, which cannot `import()` (bundle-loader.cjs).
  const { build, stop } = /** @type {typeof import('esbuild')} */ (createRequire(import.meta.url)('esbuild'));
  try {
    const started = Date.now();
    const { outputFiles, metafile } = await build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      platform: 'node',
      format,
      target: 'node20',
      external,
      plugins: [ownModuleUrls],
      write: false,
      metafile: true,
    });
    const code = outputFiles[0]?.contents;
    if (!code) throw new Error(`esbuild wrote no bundle for ${entry.pathname}`);
    const name = `${entry.pathname.split('/').pop()?.replace(/\.ts$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.${format}`;
    const file = join(cacheDir, name);
    if (!existsSync(file)) {
      mkdirSync(cacheDir, { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, code);
      renameSync(partial, file);
      for (const other of readdirSync(cacheDir)) {
        const path = join(cacheDir, other);
        if (!other.startsWith(name) && Date.now() - statSync(path).mtimeMs > keepMs) rmSync(path, { force: true });
      }
    }
    const inputs = Object.keys(metafile.inputs).map((input) => stampOf(resolve(input)));
    // A file changed while esbuild read it may be in the bundle as it was: listed, it would look current.
    if (inputs.every(([, , mtimeMs]) => mtimeMs < started)) {
      const list = inputsFileOf(entry);
      writeFileSync(`${list}.${process.pid}.partial`, JSON.stringify({ bundle: name, inputs }));
      renameSync(`${list}.${process.pid}.partial`, list);
    }
    return pathToFileURL(file);
  } finally {
    // Otherwise esbuild's child process stays for the life of the server.
    await stop();
  }
}
