#!/usr/bin/env node
// The `records` command: runs the TypeScript CLI through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/server/cli.ts');
process.exitCode = await main(process.argv.slice(2));
