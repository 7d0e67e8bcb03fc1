import { describe, expect, it } from 'vitest';
import { encodePostings, StoredPostings } from './block-postings';
import { DenseSets } from './dense-sets';

const capacity = 1000;
const lengths = new Uint32Array(capacity).fill(5);
const listOf = (ids: number[]) =>
  new StoredPostings(encodePostings({ ids: Int32Array.from(ids), counts: new Uint32Array(ids.length).fill(1) }, lengths));
const every = (step: number) => Array.from({ length: Math.floor(capacity / step) }, (_, i) => i * step);

describe('DenseSets', () => {
  it('gives a list its records, over every block, kept for the next search only when it is dense', () => {
    const sets = new DenseSets(capacity, 200, 2);
    const dense = every(3);
    const first = sets.recordsOf('a', listOf(dense));
    expect(first.toArray()).toEqual(dense);
    expect(sets.recordsOf('a', listOf(dense))).toBe(first);
    const sparse = every(7);
    expect(sets.recordsOf('b', listOf(sparse)).toArray()).toEqual(sparse);
    expect(sets.recordsOf('b', listOf(sparse))).not.toBe(sets.recordsOf('b', listOf(sparse)));
  });

  it('keeps only the last lists used', () => {
    const sets = new DenseSets(capacity, 200, 2);
    const a = sets.recordsOf('a', listOf(every(2)));
    sets.recordsOf('b', listOf(every(3)));
    expect(sets.recordsOf('a', listOf(every(2)))).toBe(a);
    sets.recordsOf('c', listOf(every(4)));
    // 'b' was the least recently used of the two kept.
    expect(sets.recordsOf('a', listOf(every(2)))).toBe(a);
    const b = sets.recordsOf('b', listOf(every(3)));
    expect(b.toArray()).toEqual(every(3));
    // 'b' is back in place of 'c'; a new list now pushes out 'a', used before it.
    sets.recordsOf('d', listOf(every(5)));
    expect(sets.recordsOf('b', listOf(every(3)))).toBe(b);
    expect(sets.recordsOf('a', listOf(every(2)))).not.toBe(a);
  });
});
