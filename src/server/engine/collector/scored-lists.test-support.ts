import fc from 'fast-check';
import { ComputedPostings, encodePostings, StoredPostings } from '../postings/block-postings';
import { b, blockBests, k1 } from '../query/bm25';
import type { Leaf } from '../query/compile';

/** The records a collector's property tests draw from: ids below this. */
export const capacity = 6000;

/** A fixed order of every id unlike id order, to break score ties by (as repo_id ranks do). */
export const tieOrder = (): Int32Array => Int32Array.from({ length: capacity }, (_, id) => (id * 7919) % capacity);

/** bm25's length norms for records of these lengths. */
export function normsOf(lengths: Uint32Array): Float64Array {
  const average = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
  const longest = Math.max(...lengths);
  return Float64Array.from({ length: longest + 1 }, (_, D) => k1 * (1 - b + (b * D) / average));
}

/** A token's list: up to `maxLength` records in order, each with a count from 1 up. */
export const tokenList = (maxLength: number) =>
  fc
    .tuple(fc.uniqueArray(fc.integer({ min: 1, max: capacity - 1 }), { minLength: 1, maxLength }), fc.integer({ min: 1, max: 5 }))
    .map(([ids, spread]) => {
      const sorted = Int32Array.from(ids.sort((x, y) => x - y));
      return { ids: sorted, counts: Uint32Array.from(sorted, (id) => 1 + ((id * 7 + spread) % (spread * 3))) };
    });

/**
 * The lists as scored leaves, stored and computed in turn: stored lists keep every block's
 * frontier, computed ones its best pair under these norms.
 */
export function leavesOf(lists: readonly { ids: Int32Array; counts: Uint32Array }[], lengths: Uint32Array, norms: Float64Array): Leaf[] {
  return lists.map((tokens, i) => ({
    postings:
      i % 2 ? new ComputedPostings(tokens, blockBests(tokens, lengths, norms)) : new StoredPostings(encodePostings(tokens, lengths)),
    idf: 0.5 + i * 0.75,
    scored: true,
  }));
}
