import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { openPooledStore } from './pooled-store';
import { reloadingStore, type ReloadingStore } from './reloading-store';
import { openStore, openStoreWriter } from './sqlite/sqlite';
import type { Criteria, RecordStore, StoredRecord } from './types';

/**
 * A served store's searches of common words: a reader keeps a dense list's block table
 * (engine/postings/kept-tables.ts) across searches, so these check that an AND or OR of a
 * common word answers as a store opened anew does, after the tables were kept and right
 * after a write that changes the common words' lists (records that lose them, new ones
 * that add them).
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-served-common-'));
const path = join(dir, 'served.db');
let store: ReloadingStore;

const retitled = (records: Iterable<StoredRecord>, title: string, description: string): StoredRecord[] =>
  [...records].map((stored) => ({ ...stored, record: { ...stored.record, title, description } }));

const searches = ['q=the reactor', 'q=data plasma', 'q=of the', 'q=the OR grid', 'q=data the analysis', 'q=the'];

function write(batch: readonly StoredRecord[]) {
  const writer = openStoreWriter(path);
  try {
    writer.put('LIT', batch);
  } finally {
    writer.close();
  }
}

const criteriaOf = (search: string): Criteria => ({ ...parseListRequest(lit, parseQueryString(search)).criteria, offset: 0, limit: 5000 });

/** What each search finds: its total and its records' repo_ids in order. */
async function answers(each: RecordStore): Promise<Record<string, { total: number; ids: string[] }>> {
  const found: Record<string, { total: number; ids: string[] }> = {};
  for (const search of searches) {
    const { total, records } = await each.search('LIT', criteriaOf(search));
    found[search] = { total, ids: records.map((record) => String(record.repo_id)) };
  }
  return found;
}

/** The answers of a store opened now on the file. */
async function expected() {
  const direct = openStore(path);
  try {
    return await answers(direct);
  } finally {
    await direct.close();
  }
}

async function until(condition: () => boolean, withinMs = 120_000) {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  write([...generateRecords(lit, 1200, { seed: 13, startId: 1 })]);
  store = await reloadingStore(path, (file) => openPooledStore(file, { size: 2, log: () => undefined }), {
    checkMs: 50,
    log: () => undefined,
  });
}, 120_000);

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('common words in a served store', () => {
  it('answer as a store opened anew, searched again and again, and right after a write that changes their lists', async () => {
    const truth = await expected();
    // Twice, so the second answers come from the kept tables.
    expect(await answers(store)).toEqual(truth);
    expect(await answers(store)).toEqual(truth);

    const before = store.revision;
    write([
      // Records that lose every common word, and new ones that hold them.
      ...retitled(generateRecords(lit, 300, { seed: 13, startId: 1 }), 'Plasma grid', 'Reactor plasma grid.'),
      ...retitled(generateRecords(lit, 60, { seed: 31, startId: 9001 }), 'The data of the reactor', 'Analysis of the data.'),
    ]);
    store.checkNow();
    await until(() => store.revision !== before);
    const after = await expected();
    expect(after['q=the']!.total).not.toBe(truth['q=the']!.total);
    expect(after['q=the reactor']!.ids).not.toEqual(truth['q=the reactor']!.ids);
    expect(await answers(store)).toEqual(after);
    expect(await answers(store)).toEqual(after);
  }, 120_000);
});
