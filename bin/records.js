#!/usr/bin/env node
// @ts-check
// The `records` command: the TypeScript CLI bundled by esbuild on first use (and again whenever
// the code changes), so there is no build step and no module-loader thread in the server.
import { loadBundle } from '../src/server/bundle-loader.cjs';
import { bundledModule } from '../src/server/module-bundle.js';

const { main } = /** @type {{ main: (args: string[]) => Promise<number> }} */ (
  loadBundle(await bundledModule(new URL('../src/server/cli.ts', import.meta.url)))
);
process.exitCode = await main(process.argv.slice(2));
