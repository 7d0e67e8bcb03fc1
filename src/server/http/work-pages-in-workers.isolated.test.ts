import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { groupByKeys } from '../../formats/work-key';
import { generateRecords } from '../corpus/generate';
import { openPooledStore } from '../store/pooled-store';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore } from '../store/types';
import { wireAnswer } from './server-fixture.test-support';
import { startServer, type RunningServer } from './server';

/**
 * `group=work` pages parse and group a whole window of records: with the pooled store that
 * is done by the worker that ran the search, so a flood of grouped pages holds up no one's
 * request on the main thread, and what is sent is byte for byte what a store without
 * workers sends.
 */

// The grouping, counted where this module runs: the server's main thread.
vi.mock('../../formats/work-key', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../formats/work-key')>();
  return { ...actual, groupByKeys: vi.fn(actual.groupByKeys) };
});

const lit = deploymentByKey('LIT')!;
const groupings = vi.mocked(groupByKeys);

let dir: string;
let pooled: RunningServer;
let local: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'work-pages-in-workers-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  // Versions of one work: the same records again under other ids, so grouped pages do group.
  const records = [...generateRecords(lit, 600, { seed: 43 })];
  writer.put('LIT', [
    ...records,
    ...records.slice(0, 150).map((stored, i) => ({ ...stored, record: { ...stored.record, repo_id: String(70_000_001 + i) } })),
  ]);
  writer.close();
  const store = await openPooledStore(path, { size: 3, cacheBytes: 0 });
  pooled = await startServer({ store, port: 0, bibtexPrefix: 'lit', publicUrl: 'https://records.example' });
  // The same file, served by a store that cannot render pages: they are grouped and written in this thread.
  const plain = openStore(path);
  const withoutPages: RecordStore = { ...plain, page: undefined };
  local = await startServer({ store: withoutPages, port: 0, bibtexPrefix: 'lit', publicUrl: 'https://records.example' });
});

afterAll(async () => {
  await pooled?.close();
  await local?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pages of works', () => {
  it.each([
    ['application/json', 'group=work', ''],
    ['application/json', 'group=work&q=energy&rows=20&page=3', 'br'],
    ['application/xml', 'group=work&rows=7&page=2', ''],
    ['application/x-bibtex', 'group=work&rows=150&sort=title', 'gzip'],
  ])(
    'are grouped by the workers, none in the main thread, and sent as a store without workers sends them (%s, %s, %s)',
    async (accept, query, encoding) => {
      const headers = { accept, ...(encoding && { 'accept-encoding': encoding }) };
      const fromWorkers = await wireAnswer(`${pooled.url}${lit.basePath}/records?${query}`, headers);
      expect(groupings).not.toHaveBeenCalled();
      const fromThisThread = await wireAnswer(`${local.url}${lit.basePath}/records?${query}`, headers);
      expect(groupings).toHaveBeenCalled();
      groupings.mockClear();
      expect(fromWorkers.headers['x-work-versions']).toMatch(/\d/);
      expect(fromWorkers.headers).toEqual(fromThisThread.headers);
      expect(fromWorkers.body.equals(fromThisThread.body)).toBe(true);
    },
  );

  it('gather the copies of a record into one work', async () => {
    const answer = await wireAnswer(`${pooled.url}${lit.basePath}/records?group=work&sort=title&rows=20`, {});
    expect(String(answer.headers['x-work-versions'])).toMatch(/\b2\b/);
    expect(groupings).not.toHaveBeenCalled();
  });
});
