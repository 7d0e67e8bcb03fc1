import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { buildRecord } from '../http/server-fixture.test-support';
import { openPooledStore } from './pooled-store';
import { reloadingStore, type ReloadingStore } from './reloading-store';
import { openStore } from './sqlite/sqlite';
import { putBatches } from './put-batches.test-support';
import type { FacetRequest, StoredRecord } from './types';

/**
 * A served store written in place counts its facets as a store written at once with the same
 * records, write after write (new records, new values, records replaced with other values,
 * names whose joins change), and each new generation's reader takes the facet index of the
 * one before over instead of reading every facet column again (facets/column-update.ts).
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-served-facets-'));
const path = join(dir, 'served.db');
const lines: string[] = [];
let store: ReloadingStore;

const named = (id: string, author: string, language = 'English') =>
  buildRecord(lit, { id, title: `Plasma notes ${id}`, authors: [author], published: '2011-05-01T00:00:00Z', language });

const writes: StoredRecord[][] = [
  [...generateRecords(lit, 2500, { seed: 9, startId: 1 }), named('9001', 'Fredrickson, E.')],
  [...generateRecords(lit, 300, { seed: 19, startId: 2501 }), named('9002', 'Fredrickson, Eric D.')],
  [...generateRecords(lit, 150, { seed: 10, startId: 950 }), named('9001', 'Fredrickson, Q.', 'French')],
  [named('9003', 'Fredrickson, E.'), named('9004', 'Fredrickson, E. M.'), named('10', 'Fredrickson, E. D.', 'German')],
];

/** The records of the first `n` writes, each repo_id as last written. */
function recordsOf(n: number): StoredRecord[] {
  const last = new Map<string, StoredRecord>();
  for (const batch of writes.slice(0, n)) for (const stored of batch) last.set(stored.record.repo_id, stored);
  return [...last.values()];
}

async function until(condition: () => boolean, withinMs = 120_000) {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  putBatches(path, writes.slice(0, 1));
  store = await reloadingStore(path, (file) => openPooledStore(file, { size: 1, log: (line) => lines.push(line) }), {
    checkMs: 50,
    log: (line) => lines.push(line),
  });
}, 120_000);

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a served store written in place', () => {
  it('counts facets as a store written at once, each generation taking the facet index of the one before over', async () => {
    const everyFacet: FacetRequest[] = lit.facets.map(({ name }) => ({ name, limit: 100_000, offset: 0, sort: 'count' }));
    for (let n = 2; n <= writes.length; n++) {
      const before = store.facetsRevision;
      putBatches(path, writes.slice(n - 1, n));
      store.checkNow();
      await until(() => store.facetsRevision !== before && store.facetsRevision === store.revision);
      const fresh = join(dir, `fresh-${n}.db`);
      putBatches(fresh, [recordsOf(n)]);
      const freshStore = openStore(fresh);
      try {
        for (const search of ['', 'q=reactor', 'language=French', 'facet.author=Fredrickson, Eric D.']) {
          const { criteria } = parseListRequest(lit, parseQueryString(search));
          const [served, written] = await Promise.all([store, freshStore].map((each) => each.facets('LIT', criteria, everyFacet)));
          expect(served, `write ${n}, ${search}`).toEqual(written);
        }
      } finally {
        await freshStore.close();
      }
    }
    const taken = lines.filter((line) => /LIT: taken over from the generation before/.test(line));
    expect(taken.length, lines.join('\n')).toBe(writes.length - 1);
    // A write of new records reads again the records of the blocks it wrote, not the store.
    expect(Number(/(\d+) of \d+ records read again/.exec(taken[0]!)![1])).toBeLessThan(2000);
  }, 300_000);
});
