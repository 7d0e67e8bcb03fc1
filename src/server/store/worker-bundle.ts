import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync, stop } from 'esbuild';

/**
 * A worker's TypeScript entry as one JavaScript module. Started through tsx, every worker
 * would get a module-loader thread of its own (Node runs loader hooks on a thread apart, a
 * V8 isolate of some 25 MB each); bundled by esbuild (what tsx uses underneath) it loads as
 * plain JavaScript. The file goes to the project's node_modules/.cache, where the packages
 * it imports resolve; its name is its content's hash, so processes never share a
 * half-written file or run stale code.
 */

const cacheDir = fileURLToPath(new URL('../../../node_modules/.cache/records-explorer/', import.meta.url));
/** Bundles of code no longer current are removed after this long (a server started on them may still respawn a worker). */
const keepMs = 7 * 24 * 3600 * 1000;

const bundles = new Map<string, URL>();

export function bundledWorker(entry: URL): URL {
  if (!entry.pathname.endsWith('.ts')) return entry;
  const known = bundles.get(entry.href);
  if (known) return known;
  const [output] = buildSync({ entryPoints: [fileURLToPath(entry)], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', write: false }).outputFiles;
  // The synchronous build leaves a thread and a child process of esbuild's running for good.
  void stop();
  const code = output!.contents;
  const name = `${entry.pathname.split('/').pop()!.replace(/\.ts$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
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
  const url = pathToFileURL(file);
  bundles.set(entry.href, url);
  return url;
}
