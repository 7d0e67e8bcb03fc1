import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { knownItemQueries, knownItems } from '../corpus/known-items';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { postgresUnavailable, startCluster, type PgCluster } from '../store/postgres/cluster.test-support';
import { openPgRecordWriter } from '../store/postgres/pg-writer';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../store/types';
import { serveUntilReady } from '../serve-until-ready.test-support';

/**
 * "Did you mean" (`{base}/suggest`) as operators serve it: `records serve` on a SQLite file,
 * where the pool builds the vocabulary once and hands it to every worker thread, and
 * `records serve --store postgres://…`, where it comes from the server's local index of the
 * PostgreSQL store, both answer every search exactly as the store opened directly in this
 * process does, on the real DC1 and LIT records.
 */

const dir = mkdtempSync(join(tmpdir(), 'records-suggest-served-'));
const dbPath = join(dir, 'records.db');
const noApp = join(dir, 'no-app');
const children = new Set<ChildProcess>();

const real = (key: DeploymentKey, files: readonly string[]) =>
  readUpstreamFiles(
    deploymentByKey(key)!,
    files.map((file) => fileURLToPath(new URL(file, realData))),
  );
const content: [DeploymentKey, StoredRecord[]][] = [
  ['DC1', real('DC1', [realFiles.geothermal, realFiles.plasma])],
  ['LIT', real('LIT', [realFiles.litJson, realFiles.litXml])],
];

/** Slips, names, words the records hold and text that is no word, then the known-item benchmark's slips. */
const searches: [DeploymentKey, string][] = [
  ...[
    'tempearture pressure',
    'geotermla',
    'McLenann',
    'ARM Snow deepth',
    'sustainbaility',
    'temperature pressure',
    '"tempearture"',
    'x',
    '',
  ].map((q) => ['DC1', q] as [DeploymentKey, string]),
  ...content.flatMap(([key, records]) =>
    knownItemQueries(knownItems(key, records), 7)
      .filter((query) => query.form === 'oneSlip' || query.form === 'otherNumber')
      .slice(0, 40)
      .map((query) => [key, query.q] as [DeploymentKey, string]),
  ),
];

let direct: RecordStore;
let cluster: PgCluster | undefined;

beforeAll(async () => {
  mkdirSync(noApp);
  const writer = openStoreWriter(dbPath, { bulk: true });
  try {
    for (const [key, records] of content) writer.put(key, records);
  } finally {
    writer.close();
  }
  direct = openStore(dbPath);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await direct?.close();
  await cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** `records serve` with these arguments, once it says it is ready: its URL. */
const serve = async (args: readonly string[]) => (await serveUntilReady(['--static', noApp, ...args], children)).url;

/** Every search's answer from `url`, beside the direct store's. */
async function compare(url: string) {
  for (const [key, q] of searches) {
    const response = await fetch(`${url}${deploymentByKey(key)!.basePath}/suggest?${new URLSearchParams({ q })}`);
    expect(response.status, q).toBe(200);
    expect(await response.json(), `${key} ${q}`).toEqual({ q, suggestion: (await direct.suggest!(key, q)) ?? null });
  }
}

describe('GET {base}/suggest as served', () => {
  it('has searches that get suggestions and searches that get none', async () => {
    const answers = await Promise.all(searches.map(([key, q]) => direct.suggest!(key, q)));
    expect(answers.filter(Boolean).length).toBeGreaterThan(30);
    expect(answers.filter((answer) => !answer).length).toBeGreaterThan(5);
  });

  it('answers through the worker pool of `records serve` as the store does directly', async () => {
    await compare(await serve(['--db', dbPath]));
  });

  it('answers a worker’s first, which builds its vocabulary, however short the search budget', async () => {
    // A millisecond is less than any vocabulary build: a worker replaced for overrunning it
    // would come back without one, and the next person's slip would replace it again.
    const url = await serve(['--db', dbPath, '--query-budget-ms', '1']);
    const response = await fetch(`${url}${deploymentByKey('DC1')!.basePath}/suggest?${new URLSearchParams({ q: 'tempearture pressure' })}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { suggestion: { q: string } }).suggestion.q).toBe('temperature pressure');
  });

  const unavailable = postgresUnavailable();
  it.skipIf(unavailable)(
    'answers from the local index of `records serve --store postgres://…` as the store does directly',
    async () => {
      cluster = await startCluster();
      const writer = await openPgRecordWriter(cluster.primary.url);
      try {
        for (const [key, records] of content) await writer.put(key, records);
      } finally {
        await writer.close();
      }
      await compare(await serve(['--store', cluster.primary.url, '--index-dir', join(dir, 'pg-index')]));
    },
    180_000,
  );
});
