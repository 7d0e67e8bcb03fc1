import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server's code is bundled by esbuild on start (module-bundle.js); a start whose source
 * files are as they were loads the last bundle without running esbuild, and a start after any
 * of them changed runs the new code. Each start is a process of its own, as `records serve` is.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-module-bundle-'));
const entry = join(dir, 'entry.ts');
const dependency = join(dir, 'value.ts');
const bundler = new URL('./module-bundle.js', import.meta.url).href;
const loader = new URL('./bundle-loader.cjs', import.meta.url).href;
/** What esbuild's API runs in place of its binary when told to (ESBUILD_BINARY_PATH): a program that fails. */
const failing = join(dir, 'not-esbuild');
writeFileSync(failing, '#!/bin/sh\nexit 1\n');
chmodSync(failing, 0o755);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a process that bundles the entry and prints what it exports; `noEsbuild` makes any run of esbuild fail. */
function start({ noEsbuild = false } = {}): string {
  const script = `const { bundledModule } = await import(${JSON.stringify(bundler)});
const { loadBundle } = await import(${JSON.stringify(loader)});
const bundle = await bundledModule(new URL(${JSON.stringify(pathToFileURL(entry).href)}));
console.log(loadBundle(bundle).value);`;
  const env = { ...process.env, ...(noEsbuild && { ESBUILD_BINARY_PATH: failing }) };
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', stdio: 'pipe' }).trim();
}

describe('the bundle a start loads', () => {
  it('is the last one while no source file changed, and new code after any did', () => {
    writeFileSync(entry, "import { value } from './value';\nexport { value };\n");
    writeFileSync(dependency, 'export const value: number = 1;\n');
    expect(start()).toBe('1');
    // esbuild is not run at all: it would fail here.
    expect(start({ noEsbuild: true })).toBe('1');
    writeFileSync(dependency, 'export const value: number = 22;\n');
    expect(() => start({ noEsbuild: true }), 'a changed file is bundled again').toThrow();
    expect(start()).toBe('22');
    // The same size, another time.
    writeFileSync(dependency, 'export const value: number = 33;\n');
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(dependency, earlier, earlier);
    expect(start()).toBe('33');
    expect(start({ noEsbuild: true })).toBe('33');
  });
});
