import { describe, expect, it } from 'vitest';
import { encodePostings, StoredPostings, decodePostings, type TokenPostings } from './block-postings';
import { KeptTables } from './kept-tables';

/** A list of the records from `from` up to `to`, each once. */
const listOf = (from: number, to: number): TokenPostings => ({
  ids: Int32Array.from({ length: to - from }, (_, i) => from + i),
  counts: Uint32Array.from({ length: to - from }, (_, i) => 1 + (i % 3)),
});
const lengths = new Uint32Array(10_000).fill(7);
const bytesOf = (list: TokenPostings) => new KeptTables(0, Infinity).read(0, [encodePostings(list, lengths)])[0]!.bytes;

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
    expect(a[0]).toBe(0);
    expect(b[0]).toBe(128);
    expect(decodePostings(second)).toEqual(dense);
  });

  it('hold at most their budget, forgetting the least recently used first', () => {
    const list = listOf(0, 3000);
    const one = bytesOf(list);
    const kept = new KeptTables(1000, 2.5 * one);
    kept.read(1, [encodePostings(list, lengths)]);
    kept.read(2, [encodePostings(list, lengths)]);
    kept.get(1);
    kept.read(3, [encodePostings(list, lengths)]);
    expect(kept.size).toBeLessThanOrEqual(2.5 * one);
    expect([1, 2, 3].map((key) => kept.get(key) !== undefined)).toEqual([true, false, true]);
    // Read again under the same key: counted once.
    kept.read(3, [encodePostings(list, lengths)]);
    expect(kept.size).toBe(2 * one);
    // A list larger than the whole budget is not kept.
    const small = new KeptTables(1000, one - 1);
    small.read(1, [encodePostings(list, lengths)]);
    expect(small.get(1)).toBeUndefined();
    expect(small.size).toBe(0);
  });
});
