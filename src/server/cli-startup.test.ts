import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../deployments/registry';
import type { DeploymentKey } from '../deployments/schema';
import { readUpstreamFiles } from './import/files';
import { realData, realFiles } from './import/real-files.test-support';
import { startServer, type RunningServer } from './http/server';
import { openStore, openStoreWriter } from './store/sqlite/sqlite';
import type { RecordStore } from './store/types';
import { serveUntilReady } from './serve-until-ready.test-support';

/**
 * A start of `records serve` as an operator sees it: the process says it is ready on stderr
 * (`records: ready at URL/`, its own signal, README "Two commands"), and the first requests
 * sent at that moment, a search, its facets, type-ahead and "Did you mean", are answered as
 * the same store answers them opened in this process, with nothing warmed by an earlier
 * request. The test waits on that line, never on a time.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-cli-startup-'));
const dbPath = join(dir, 'records.db');
const noApp = join(dir, 'no-app');
const children = new Set<ChildProcess>();
let direct: RecordStore;
let reference: RunningServer;

const real = (key: DeploymentKey, files: readonly string[]) =>
  readUpstreamFiles(
    deploymentByKey(key)!,
    files.map((file) => fileURLToPath(new URL(file, realData))),
  );

beforeAll(async () => {
  mkdirSync(noApp);
  const writer = openStoreWriter(dbPath, { bulk: true });
  try {
    writer.put('DC1', real('DC1', [realFiles.geothermal, realFiles.plasma]));
    writer.put('LIT', real('LIT', [realFiles.litJson, realFiles.litXml]));
  } finally {
    writer.close();
  }
  direct = openStore(dbPath);
  reference = await startServer({ store: direct, port: 0 });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await reference?.close();
  await direct?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Status, total and body of a request, with the server's own origin taken out of the body. */
async function answerOf(origin: string, path: string) {
  const response = await fetch(`${origin}${path}`);
  return {
    status: response.status,
    total: response.headers.get('x-total-count'),
    body: (await response.text()).replaceAll(origin, 'ORIGIN'),
  };
}

const firstRequests = [
  '/api/lit/v1/records?q=solar&rows=5',
  '/api/lit/v1/facets?q=solar',
  '/api/lit/v1/facets?facet=author&facet_limit=20&facet_sort=value',
  '/api/dc/v1/records?q=temperature&sort=publication_date&order=asc&rows=3',
  '/api/dc/v1/facets?q=temperature',
  '/api/lit/v1/complete?field=author&prefix=sha',
  '/api/dc/v1/suggest?q=tempearture%20pressure',
];

describe('records serve, from its ready line', () => {
  it('answers its first search, facets, type-ahead and suggestions as the store does', async () => {
    const expected = await Promise.all(firstRequests.map((path) => answerOf(reference.url, path)));
    expect(expected.every(({ status }) => status === 200)).toBe(true);
    expect(JSON.parse(expected[1]!.body).facets.length).toBeGreaterThan(3);
    expect(JSON.parse(expected[5]!.body).values.length).toBeGreaterThan(0);
    expect(JSON.parse(expected[6]!.body).suggestion.q).toBe('temperature pressure');
    const { url, child, stderr } = await serveUntilReady(['--db', dbPath, '--static', noApp], children);
    // All at once, at the moment it says it is ready: nothing warmed by an earlier request.
    const served = await Promise.all(firstRequests.map((path) => answerOf(url, path)));
    served.forEach((answer, i) => expect(answer, firstRequests[i]).toEqual(expected[i]));
    // A first start on this data reads the facet columns itself.
    expect(stderr()).not.toMatch(keptLine);
    // Every deployment's suggestions answered: its reader has kept everything before them.
    for (const { basePath } of deployments) expect((await fetch(`${url}${basePath}/suggest?q=tempearture`)).status).toBe(200);
    await stopped(child);
  });

  it('a restart on the same data takes what the last reader kept, and answers the same', async () => {
    const expected = await Promise.all(firstRequests.map((path) => answerOf(reference.url, path)));
    const { url, child, stderr } = await serveUntilReady(['--db', dbPath, '--static', noApp], children);
    // Said before the ready line: the facet columns were not read again.
    expect(stderr()).toMatch(keptLine);
    const served = await Promise.all(firstRequests.map((path) => answerOf(url, path)));
    served.forEach((answer, i) => expect(answer, firstRequests[i]).toEqual(expected[i]));
    await stopped(child);
  });
});

const keptLine = /^records: facet values read as kept for this data/m;

async function stopped(child: ChildProcess) {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}
