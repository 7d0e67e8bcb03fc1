import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockFrontiers } from './block-frontier';
import { blockSize, decodePostings, encodePostings, StoredPostings } from './block-postings';

/**
 * A token's postings are stored by blocks of ids and counts (LEB128 gaps and counts, after
 * a header of each block's last id, byte lengths and frontier): what is written reads back
 * the same, a block at a time and whole.
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

describe('block postings', () => {
  it('round-trip through their encoding, by blocks that know the (count, length) pairs no other of their records beats', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { maxLength: 700 }),
        fc.nat({ max: 2 ** 32 - 1 }),
        (raw, seed) => {
          const ids = Int32Array.from(raw.sort((a, b) => a - b));
          const counts = Uint32Array.from(ids, (_, i) => ((seed + i * 7919) % 2 ** 32) >>> 0);
          const lengthOf = (id: number) => (id * 31 + seed) % 1000;
          const lengths = new Proxy([] as number[], { get: (_, key) => lengthOf(Number(key)) });
          const stored = new StoredPostings(encodePostings({ ids, counts }, lengths));
          expect(decodePostings(stored)).toEqual({ ids, counts });
          expect(stored.blocks).toBe(Math.ceil(ids.length / blockSize));
          for (let b = 0; b < stored.blocks; b++) {
            const blockIds = ids.subarray(b * blockSize, (b + 1) * blockSize);
            const blockCounts = counts.subarray(b * blockSize, (b + 1) * blockSize);
            expect(stored.lastIds[b]).toBe(blockIds[blockIds.length - 1]);
            expect(frontierOf(stored.frontiers, b)).toEqual(bestPairs(Array.from(blockIds, (id, i) => [blockCounts[i]!, lengthOf(id)])));
            // Counts are read apart from ids, in any order.
            expect(Array.from(stored.counts(b))).toEqual(Array.from(blockCounts));
            expect(Array.from(stored.ids(b))).toEqual(Array.from(blockIds));
          }
        },
      ),
    );
  });

  it('refuse a list in another format', () => {
    const data = encodePostings({ ids: Int32Array.of(3), counts: Uint32Array.of(1) }, [0, 0, 0, 5]);
    data[0] = 9;
    expect(() => new StoredPostings(data)).toThrow(/format 9/);
  });
});
