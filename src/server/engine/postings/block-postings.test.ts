import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockFrontiers } from './block-frontier';
import { blockSize, decodePostings, encodePostings, StoredPostings } from './block-postings';

/**
 * A token's postings are stored by blocks of ids and counts (a full block bit-packed in
 * words, the last to the byte less its last gap, after a header of each block's last id,
 * widths and frontier): what is written reads back the same, a block at a time and whole.
 */

/** Block b's frontier as [count, length] pairs. */
function frontierOf({ starts, counts, lengths }: BlockFrontiers, b: number): [number, number][] {
  return Array.from({ length: starts[b + 1]! - starts[b]! }, (_, k) => [counts[starts[b]! + k]!, lengths[starts[b]! + k]!]);
}

/** The distinct pairs no other pair matches on both (a count as large, a length as short), largest count first. */
function bestPairs(pairs: [number, number][]): [number, number][] {
  const distinct = [...new Map(pairs.map((pair) => [pair.join(), pair])).values()];
  return distinct
    .filter(([count, length]) => !distinct.some(([c, l]) => c >= count && l <= length && (c !== count || l !== length)))
    .sort((a, b) => b[0] - a[0]);
}

/** Encodes and reads back a list, checking every block against what was written. */
function roundTrip(ids: Int32Array, counts: Uint32Array, lengthOf: (id: number) => number): Uint8Array {
  const lengths = new Proxy([] as number[], { get: (_, key) => lengthOf(Number(key)) });
  const data = encodePostings({ ids, counts }, lengths);
  const stored = new StoredPostings(data);
  expect(decodePostings(stored)).toEqual({ ids, counts });
  expect(stored.docs).toBe(ids.length);
  expect(stored.blocks).toBe(Math.ceil(ids.length / blockSize));
  for (let b = 0; b < stored.blocks; b++) {
    const blockIds = ids.subarray(b * blockSize, (b + 1) * blockSize);
    const blockCounts = counts.subarray(b * blockSize, (b + 1) * blockSize);
    expect(stored.lastIds[b]).toBe(blockIds[blockIds.length - 1]);
    expect(frontierOf(stored.frontiers, b)).toEqual(bestPairs(Array.from(blockIds, (id, i) => [blockCounts[i]!, lengthOf(id)])));
    // Counts are read apart from ids, in any order.
    expect(Array.from(stored.counts(b))).toEqual(Array.from(blockCounts));
    // And one at a time, the block unread (a filter's few records are scored so).
    expect(Array.from(blockCounts, (_, i) => stored.countAt(b, i))).toEqual(Array.from(blockCounts));
    expect(Array.from(stored.ids(b))).toEqual(Array.from(blockIds));
  }
  // Blocks read out of order read the same.
  for (let b = stored.blocks - 1; b >= 0; b--) expect(stored.ids(b)[0]).toBe(ids[b * blockSize]);
  return data;
}

/** Lists of 1 document, of exactly k × 128 and of k × 128 ± 1. */
const sizes = fc.oneof(
  fc.constant(1),
  fc.integer({ min: 1, max: 4 }).map((k) => k * blockSize),
  fc.integer({ min: 1, max: 4 }).chain((k) => fc.constantFrom(k * blockSize - 1, k * blockSize + 1)),
  fc.nat({ max: 700 }),
);

describe('block postings', () => {
  it('round-trip through their encoding, by blocks that know the (count, length) pairs no other of their records beats', () => {
    fc.assert(
      fc.property(
        sizes.chain((n) => fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: n, maxLength: n })),
        fc.nat({ max: 2 ** 32 - 1 }),
        (raw, seed) => {
          const ids = Int32Array.from(raw.sort((a, b) => a - b));
          const counts = Uint32Array.from(ids, (_, i) => ((seed + i * 7919) % 2 ** 32) >>> 0);
          roundTrip(ids, counts, (id) => (id * 31 + seed) % 1000);
        },
      ),
    );
  });

  it('round-trip the largest gaps and counts there are, and dense runs from id 0', () => {
    fc.assert(
      fc.property(sizes, fc.constantFrom(0, 1, 2 ** 32 - 1), (n, count) => {
        const dense = Int32Array.from({ length: n }, (_, i) => i);
        roundTrip(dense, new Uint32Array(n).fill(count), () => 7);
        // Gaps as wide as an id allows: 0, then the largest id.
        const wide = Int32Array.from({ length: n }, (_, i) => (i === n - 1 ? 2 ** 31 - 1 : i));
        const counts = Uint32Array.from({ length: n }, (_, i) => (i % 2 ? 2 ** 32 - 1 : 0));
        roundTrip(wide, counts, (id) => id % 3);
      }),
    );
  });

  it('take no bytes for the ids of a run of consecutive records nor for counts all the same', () => {
    const n = 4 * blockSize;
    const run = Int32Array.from({ length: n }, (_, i) => i);
    const spread = Int32Array.from({ length: n }, (_, i) => 3 * i);
    const same = new Uint32Array(n).fill(10);
    const size = (ids: Int32Array) => roundTrip(ids, same.subarray(0, ids.length), () => 5).length;
    // Gaps of 3 pack at 2 bits: 32 bytes a block more than consecutive ids.
    expect(size(spread) - size(run)).toBe(4 * 32);
    expect(size(run)).toBeLessThan(60);
    // A list shorter than a block too (most are): its ids and counts take no bytes, and a single document's id is its block's last.
    expect(size(run.subarray(0, 100))).toBeLessThan(20);
    expect(roundTrip(Int32Array.of(2 ** 31 - 1), Uint32Array.of(7), () => 5).length).toBeLessThan(20);
  });

  it('round-trip lists of mostly narrow gaps and counts with a few wide ones, which their blocks set apart', () => {
    fc.assert(
      fc.property(
        sizes,
        fc.array(fc.nat({ max: 2 ** 20 }), { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat({ max: 700 }), fc.nat({ max: 2 ** 32 - 1 })), { maxLength: 12 }),
        (n, jumps, wide) => {
          const ids = new Int32Array(n);
          for (let i = 0, id = -1; i < n; i++) ids[i] = id += 1 + (i % 3) + (jumps[i % 97] ?? 0) * Number(i % 97 < jumps.length);
          const counts = Uint32Array.from({ length: n }, (_, i) => 1 + (i % 2));
          for (const [at, count] of wide) if (at < n) counts[at] = count;
          roundTrip(ids, counts, (id) => id % 11);
        },
      ),
    );
  });

  it("set apart a block's few wide counts: one record's title among records holding a word once in their full text", () => {
    const n = 4 * blockSize;
    const ids = Int32Array.from({ length: n }, (_, i) => 3 * i);
    const once = new Uint32Array(n).fill(1);
    const titled = once.map((count, i) => (i % blockSize === 5 ? 11 : count));
    const size = (counts: Uint32Array) => roundTrip(ids, counts, () => 5).length;
    // Each block's counts at 0 bits, then 4 bytes: its widths number a byte longer, the patch's number, the exception's
    // place (7 bits) and high bits (4), where 4 bits for each count took 64.
    expect(size(titled) - size(once)).toBe(4 * 4);
  });

  it('refuse a list in another format', () => {
    const data = encodePostings({ ids: Int32Array.of(3), counts: Uint32Array.of(1) }, [0, 0, 0, 5]);
    data[0] = 9;
    expect(() => new StoredPostings(data)).toThrow(/format 9/);
  });
});
