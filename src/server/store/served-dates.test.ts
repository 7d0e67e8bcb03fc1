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
import { openEngine } from './sqlite/query-engine';
import { openStore } from './sqlite/sqlite';
import { putBatches } from './put-batches.test-support';
import type { Criteria, RecordStore, StoredRecord } from './types';

/**
 * A served store's date searches: its workers take the date columns from the generation's
 * reader (store-worker.ts) and read each range from its index until they come. Either way a
 * date search answers as a store that reads the columns itself does, on a new server, right
 * after a write that dates records anew, and once the new generation's columns are handed over.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-served-dates-'));
const path = join(dir, 'served.db');
let store: ReloadingStore;

const redated = (records: Iterable<StoredRecord>, date: string): StoredRecord[] =>
  [...records].map((stored) => ({ ...stored, record: { ...stored.record, publication_date: date } }));

const writes: StoredRecord[][] = [
  [...generateRecords(lit, 1500, { seed: 9, startId: 1 })],
  // Records dated anew, and new ones, in a year no record held before.
  [
    ...redated(generateRecords(lit, 120, { seed: 9, startId: 1 }), '1961-03-04T00:00:00Z'),
    ...redated(generateRecords(lit, 40, { seed: 21, startId: 5001 }), '1961-07-01T00:00:00Z'),
  ],
];

const searches = [
  'publication_date_start=01/01/1961&publication_date_end=12/31/1961',
  'publication_date_start=01/01/2010&publication_date_end=12/31/2012',
  'q=reactor&publication_date_start=01/01/1990',
  'q=plasma 1961',
  'q=plasma&publication_date_end=12/31/1999',
  'entry_date_start=01/01/2015',
];

const write = (batch: readonly StoredRecord[]) => putBatches(path, [batch]);

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

/** The answers of a store opened now on the file, one engine reading the date columns itself. */
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

/** Resolves once the generation's reader has handed its date columns over: the vocabulary for suggestions comes after them. */
const datesHandedOver = async () => void (await store.suggest!('LIT', 'plasma'));

beforeAll(async () => {
  write(writes[0]!);
  store = await reloadingStore(path, (file) => openPooledStore(file, { size: 2, log: () => undefined }), {
    checkMs: 50,
    log: () => undefined,
  });
}, 120_000);

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('date searches of a served store', () => {
  it('answer on a new server, before and after the date columns are handed over, as a store reading them itself', async () => {
    const truth = await expected();
    expect(await answers(store)).toEqual(truth);
    await datesHandedOver();
    const again = await answers(store);
    expect(again).toEqual(truth);
    // Most searches find records (the year 1961 is dated only by the write below).
    expect(Object.values(again).filter(({ total }) => total > 0).length).toBeGreaterThanOrEqual(searches.length - 1);
  }, 120_000);

  it('answer right after a write that dates records anew, and once the new generation has its columns', async () => {
    const before = store.revision;
    write(writes[1]!);
    store.checkNow();
    await until(() => store.revision !== before);
    const truth = await expected();
    expect(truth[searches[0]!]!.total).toBeGreaterThanOrEqual(160);
    expect(await answers(store)).toEqual(truth);
    await datesHandedOver();
    expect(await answers(store)).toEqual(truth);
  }, 120_000);

  it('are not answered from date columns read at another revision', () => {
    const criteria = criteriaOf(searches[0]!);
    const reader = openEngine(path, { snapshot: true });
    const columns = reader.sharedDates();
    const before = reader.rank('LIT', criteria, 1000).total;
    reader.close();
    write(redated(generateRecords(lit, 30, { seed: 9, startId: 200 }), '1961-09-09T00:00:00Z'));
    const worker = openEngine(path, { snapshot: true, datesHandedOver: true });
    try {
      worker.adopt({ dates: columns });
      expect(worker.rank('LIT', criteria, 1000).total).toBe(before + 30);
    } finally {
      worker.close();
    }
  });
});
