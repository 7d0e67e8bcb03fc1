import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../../deployments/registry';
import { textColumns } from '../../../../formats/index-text';
import { generateRecords } from '../../../corpus/generate';
import { openStoreWriter } from '../sqlite-writer';
import { gatherScript, GatherThread } from './gather-thread';
import { InstanceGatherer, type TextInstances } from './text-instances';
import { buildPairs } from './pair-postings';
import type { PairHelper } from './pair-ranges';

const db = new Database(':memory:');
const dir = mkdtempSync(join(tmpdir(), 'gather-thread-'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const lit = deploymentByKey('LIT')!;
// More than a batch of records sent to the thread, and more than a batch of instances handed back.
const records = [...generateRecords(lit, 700, { seed: 5 })];

function collected(text: TextInstances) {
  const instances: [string, number[]][] = [];
  text.each((token, triples) => instances.push([token, [...triples]]));
  return { lengths: [...text.lengths], rows: text.rows, tokens: text.tokens, instances };
}

/** Every table's rows but the store's revision and stamp, which each write sets anew. */
function storedRows(path: string): Record<string, unknown[]> {
  const store = new Database(path, { readonly: true });
  try {
    const tables = store
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%meta%' ORDER BY name`)
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => {
        const columns = store.prepare(`SELECT * FROM "${table}"`).columns();
        const order = columns.map((_, i) => i + 1).join(', ');
        return [table, store.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).raw().all()];
      }),
    );
  } finally {
    store.close();
  }
}

describe('text gathered on a thread of its own', () => {
  it("is every token's instances the writer's thread gathers, in the same order, with ranges written out or not", async () => {
    const script = await gatherScript();
    for (const ranges of [{}, { rangeBytes: 64 * 1024 }]) {
      // Batches of instances small enough that the thread waits for the build to take them.
      const thread = new GatherThread(script, lit, { ranges, batchNumbers: 1 << 14 });
      const here = new InstanceGatherer(db, 'here', ranges);
      records.forEach((stored, i) => {
        thread.add(1 + i * 3, stored, JSON.stringify(stored.record));
        here.add(1 + i * 3, textColumns(lit, stored));
      });
      const there = thread.finish();
      const expected = here.finish();
      try {
        const gathered = collected(there);
        expect(gathered.instances.length).toBeGreaterThan(2000);
        expect(gathered).toEqual(collected(expected));
      } finally {
        there.drop();
        expected.drop();
      }
    }
  });

  it("makes a bulk load's store the same, row for row, as gathering on the writer's thread", async () => {
    const gatherOn = { here: {}, there: { gatherScript: await gatherScript() } };
    const rows = Object.entries(gatherOn).map(([name, options]) => {
      const path = join(dir, `${name}.db`);
      const writer = openStoreWriter(path, { bulk: true, ...options });
      try {
        writer.put('LIT', records);
      } finally {
        writer.close();
      }
      return storedRows(path);
    });
    expect(Object.keys(rows[0]!).length).toBeGreaterThan(10);
    expect(rows[1]).toEqual(rows[0]);
  });

  it("builds every other range of the pair lists beside the writer's thread, the lists equal to those built at once", async () => {
    const path = join(dir, 'pairs.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', records);
    writer.close();
    const store = new Database(path);
    const thread = new GatherThread(await gatherScript(), lit);
    try {
      const pairs = () => store.prepare(`SELECT id, docs, hex(data) FROM lit_pairs ORDER BY id`).raw().all();
      const atOnce = pairs();
      const { rows, data } = store.prepare(`SELECT rows, data FROM lit_lengths`).get() as { rows: number; data: Buffer };
      store.exec(`DELETE FROM lit_pairs; DELETE FROM lit_common`);
      records.forEach((stored, i) => thread.add(i + 1, stored, JSON.stringify(stored.record)));
      const text = thread.finish();
      text.each(() => {});
      const parts = new Set<number>();
      const helper: PairHelper = {
        start: (job) => text.pairHelper!.start(job),
        drain: (take, wait) =>
          text.pairHelper!.drain((batch) => {
            parts.add(batch.part);
            take(batch);
          }, wait),
      };
      buildPairs(store, lit, new Uint32Array(new Uint8Array(data).buffer), rows, { recordsAtOnce: 100, helper });
      expect(atOnce.length).toBeGreaterThan(100);
      expect([...parts].sort((a, b) => a - b)).toEqual([1, 3, 5, 7]);
      expect(pairs()).toEqual(atOnce);
    } finally {
      thread.drop();
      store.close();
    }
  });

  it('fails the build with what failed on the thread', async () => {
    const thread = new GatherThread(await gatherScript(), lit);
    const [first, second] = records;
    thread.add(5, first!, JSON.stringify(first!.record));
    thread.add(3, second!, JSON.stringify(second!.record));
    expect(() => thread.finish()).toThrow(/record 3 came after 5/);
    thread.drop();
  });
});
