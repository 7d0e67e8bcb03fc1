import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topByBlockMax } from '../collector/block-max';
import { blockBounds } from '../collector/bounds';
import { capacity, normsOf, tokenList } from '../collector/scored-lists.test-support';
import { blockBests, termScore } from '../query/bm25';
import { ComputedPostings, decodePostings, encodePostings, StoredPostings, type Postings, type TokenPostings } from './block-postings';
import { MergedPostings } from './merged-postings';

/**
 * Several stored lists searched as one (a prefix's expansions) read as the lists merged by
 * record with their counts summed, whether through the longest list's blocks or merged up
 * front; and a block's bounds never fall below a record's score.
 */

/** Records' lengths, from a seed (a counterexample then names the seed, not six thousand lengths). */
const lengthsOf = (seed: number) => Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * 31 + seed) % 400));

/** A list in some share of the records, each with a count from 1 up. */
const denseList = fc.tuple(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 5 })).map(([every, spread]) => {
  const ids = Int32Array.from({ length: capacity - 1 }, (_, i) => i + 1).filter((id) => (id * 13) % 10 < every);
  return { ids, counts: Uint32Array.from(ids, (id) => 1 + ((id * 7 + spread) % (spread * 3))) };
});

/** The lists merged by brute force. */
function mergedByHand(lists: readonly TokenPostings[]): TokenPostings {
  const sums = new Map<number, number>();
  for (const { ids, counts } of lists) ids.forEach((id, i) => sums.set(id, (sums.get(id) ?? 0) + counts[i]!));
  const ids = Int32Array.from([...sums.keys()].sort((x, y) => x - y));
  return { ids, counts: Uint32Array.from(ids, (id) => sums.get(id)!) };
}

function mergedOf(lists: readonly TokenPostings[], lengths: Uint32Array, countsById = new Uint32Array(capacity)): Postings | undefined {
  const norms = normsOf(lengths);
  return MergedPostings.of(
    lists.map((list) => () => new StoredPostings(encodePostings(list, lengths))),
    lengths,
    countsById,
    (list) => new ComputedPostings(list, blockBests(list, lengths, norms)),
  );
}

/** A list in nine records of ten, each once but a few: the longest of a prefix's expansions, as `measur` is of `meas*`. */
function commonList(): TokenPostings {
  const ids = Int32Array.from({ length: capacity - 1 }, (_, i) => i + 1).filter((id) => id % 10 !== 0);
  return { ids, counts: Uint32Array.from(ids, (id) => (id % 1000 === 1 ? 12 : 1)) };
}

describe('merged postings', () => {
  it('read as the lists merged by record, block by block in any order, with bounds no record scores above', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.oneof(denseList, fc.constant(undefined)),
        fc.array(tokenList(120), { minLength: 0, maxLength: 4 }),
        fc.double({ min: 0.01, max: 12, noNaN: true }),
        (seed, dense, few, idf) => {
          const lengths = lengthsOf(seed);
          // The longest in the middle, and a list twice: the sums do not depend on the order.
          const lists = dense ? [...few, dense, ...few.slice(0, 1)] : few;
          const countsById = new Uint32Array(capacity);
          const merged = mergedOf(lists, lengths, countsById);
          expect(countsById.every((count) => count === 0)).toBe(true);
          if (lists.length === 0) {
            expect(merged).toBeUndefined();
            return;
          }
          const expected = mergedByHand(lists);
          expect(decodePostings(merged!)).toEqual(expected);
          // Read through the longest where the others hold at most a quarter as many records.
          const pairs = lists.map((list) => list.ids.length).sort((x, y) => y - x);
          const others = pairs.slice(1).reduce((sum, n) => sum + n, 0);
          expect(merged instanceof MergedPostings).toBe(others > 0 && others * 4 <= pairs[0]!);
          expect(merged!.docs).toBe(expected.ids.length);
          const norms = normsOf(lengths);
          const bounds = blockBounds(merged!, idf, norms);
          for (let b = merged!.blocks - 1; b >= 0; b--) {
            // Counts first, then ids: each read on its own reads the same block.
            const counts = Array.from(merged!.counts(b));
            const ids = Array.from(merged!.ids(b));
            expect(ids.length).toBe(merged!.size(b));
            expect(counts.length).toBe(ids.length);
            expect(ids.at(-1)).toBe(merged!.lastIds[b]);
            if (b > 0) expect(ids[0]).toBeGreaterThan(merged!.lastIds[b - 1]!);
            ids.forEach((id, i) => expect(termScore(idf, counts[i]!, norms[lengths[id]!]!)).toBeLessThanOrEqual(bounds[b]!));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads a list that holds most of the records through its blocks: a first page decodes few of the longest list's counts", () => {
    const lengths = Uint32Array.from({ length: capacity }, (_, id) => 20 + ((id * 37) % 300));
    const norms = normsOf(lengths);
    const common = commonList();
    // Records the common list holds (2001) and does not (the others), one of them first.
    const rare = { ids: Int32Array.from([10, 20, 2001, 3000, 5990]), counts: Uint32Array.from([1, 1, 11, 13, 1]) };
    const decoded = new Set<number>();
    const stored = new StoredPostings(encodePostings(common, lengths));
    const watched = new Proxy(stored, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (key === 'counts') return (b: number) => (decoded.add(b), target.counts(b));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const countsById = new Uint32Array(capacity);
    const merged = MergedPostings.of([() => new StoredPostings(encodePostings(rare, lengths)), () => watched], lengths, countsById, () => {
      throw new Error('merged up front');
    })!;
    expect(merged).toBeInstanceOf(MergedPostings);

    const idf = 0.7;
    const top = Array.from(topByBlockMax([{ postings: merged, idf, scored: true }], lengths, norms, undefined, 3, undefined));
    const all = mergedByHand([common, rare]);
    const byScore = Array.from(all.ids.keys())
      .map((i) => ({ id: all.ids[i]!, score: termScore(idf, all.counts[i]!, norms[lengths[all.ids[i]!]!]!) }))
      .sort((x, y) => y.score - x.score || x.id - y.id);
    expect(top).toEqual(byScore.slice(0, 3).map(({ id }) => id));
    expect(top[0]).toBe(3000);
    expect(decoded.size).toBeGreaterThan(0);
    expect(decoded.size).toBeLessThan(stored.blocks / 4);
  });

  it('merges lists up front where the others hold more than a quarter as many records as the longest', () => {
    const lengths = Uint32Array.from({ length: capacity }, (_, id) => 20 + ((id * 37) % 300));
    const common = commonList();
    const half = { ids: common.ids.filter((id) => id % 2 === 0), counts: common.counts.filter((_, i) => common.ids[i]! % 2 === 0) };
    const merged = mergedOf([common, half], lengths)!;
    expect(merged).toBeInstanceOf(ComputedPostings);
    expect(decodePostings(merged)).toEqual(mergedByHand([common, half]));
  });

  it("leaves the reader's array of counts zeroed where a list fails to read", () => {
    const lengths = Uint32Array.from({ length: capacity }, () => 10);
    const countsById = new Uint32Array(capacity);
    const list = { ids: Int32Array.from([1, 5, 9]), counts: Uint32Array.from([1, 2, 3]) };
    const read = () => new StoredPostings(encodePostings(list, lengths));
    expect(() =>
      MergedPostings.of(
        [
          read,
          read,
          () => {
            throw new Error('disk I/O error');
          },
        ],
        lengths,
        countsById,
        (merged) => new ComputedPostings(merged, blockBests(merged, lengths, normsOf(lengths))),
      ),
    ).toThrow('disk I/O error');
    expect(countsById.every((count) => count === 0)).toBe(true);
  });
});
