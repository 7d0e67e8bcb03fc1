import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startFixture } from './server-fixture.test-support';

/**
 * Global setup of the app's component tests (the `dom` project): the HTTP suite's fixture
 * server, with its known records, serving public/ as the app's own files (config.json, the
 * citation styles), so components ask a real server as they do in the browser.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the records server the component tests ask, without a trailing slash. */
    recordsServer: string;
  }
}

const publicDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../public');

export default async function setup(project: TestProject) {
  const fixture = await startFixture({ staticDir: publicDir });
  project.provide('recordsServer', fixture.url.replace(/\/$/, ''));
  return () => fixture.close();
}
