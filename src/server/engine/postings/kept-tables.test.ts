import { describe, expect, it } from 'vitest';
import { decodePostings, encodePostings, StoredPostings, type TokenPostings } from './block-postings';
import { KeptTables } from './kept-tables';

/** A list of the records from `from` up to `to`, each once. */
const listOf = (from: number, to: number): TokenPostings => ({
  ids: Int32Array.from({ length: to - from }, (_, i) => from + i),
  counts: Uint32Array.from({ length: to - from }, (_, i) => 1 + (i % 3)),
});
const lengths = new Uint32Array(10_000).fill(7);

describe('kept block tables', () => {
  it('keep a dense list, read back as it was stored, and never a sparse one', () => {
    const kept = new KeptTables(1000, 1 << 20);
    const dense = listOf(0, 5000);
    kept.read(1, [encodePostings(dense, lengths)]);
    kept.read(2, [encodePostings(listOf(0, 999), lengths)]);
    expect(kept.get(2)).toBeUndefined();
    const [table] = kept.get(1)!;
    // Two lists read from one table at once each decode their own blocks.
    const [first, second] = [new StoredPostings(table!), new StoredPostings(table!)];
    const [a, b] = [first.ids(0), second.ids(1)];
    expect([a[0], b[0]]).toEqual([0, 128]);
    expect(decodePostings(second)).toEqual(dense);
  });

  it('hold at most their budget, forgetting the least recently used first', () => {
    const list = listOf(0, 3000);
    const one = new KeptTables(0, Infinity).read(0, [encodePostings(list, lengths)])[0]!.bytes;
    // Room for four lists (none may take over a quarter of the budget).
    const kept = new KeptTables(1000, 4 * one);
    for (const key of [1, 2, 3, 4]) kept.read(key, [encodePostings(list, lengths)]);
    kept.get(1);
    kept.read(5, [encodePostings(list, lengths)]);
    expect([1, 2, 3, 4, 5].map((key) => kept.get(key) !== undefined)).toEqual([true, false, true, true, true]);
    // A list over a quarter of the budget is not kept.
    const small = new KeptTables(1000, 4 * one - 1);
    small.read(1, [encodePostings(list, lengths)]);
    expect(small.get(1)).toBeUndefined();
  });
});
