import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../id-set';
import { scoreEverything, topByBlockMax } from './block-max';
import { capacity, leavesOf, normsOf, tieOrder, tokenList } from './scored-lists.test-support';
import { BestOf, topOrder } from './top-k';
import { scoreUnion, topOfUnion } from './union';
import type { Leaf } from '../query/compile';

/** topOfUnion's count, first page and tie order are those of scoring every record of the union. */
function expectRankedAsScoredWhole(
  leaves: Leaf[],
  lengths: Uint32Array,
  norms: Float64Array,
  need: number,
  ties: Int32Array | undefined,
): void {
  const union = scoreUnion(leaves, lengths, norms);
  const best = new BestOf(need, ties);
  expect(topOfUnion(leaves, lengths, norms, best)).toBe(union.ids.length);
  expect(Array.from(best.order())).toEqual(Array.from(topOrder(union, true, need, ties)));
}

/**
 * An OR scored in one pass over its lists: every record of any list, each with the score
 * that scoring every match of the union gives it (to the bit), so its count, its first
 * page and any deeper page are those of counting through bitsets and ranking by block-max.
 */

describe('an OR scored in one pass', () => {
  it('finds every record of its lists with the scores, count and order of bitsets and block-max', () => {
    fc.assert(
      fc.property(
        fc.array(tokenList(2000), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, need, ranked, seed) => {
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 97));
          const norms = normsOf(lengths);
          const leaves = leavesOf(lists, lengths, norms);
          const matches = new IdSet(capacity);
          for (const { ids } of lists) matches.addAll(ids);
          const every = scoreEverything(leaves, lengths, norms, matches);
          const union = scoreUnion(leaves, lengths, norms);
          expect(union.ids.length).toBe(matches.count());
          expect(Array.from(union.ids)).toEqual(Array.from(every.ids));
          expect(Array.from(union.scores)).toEqual(Array.from(every.scores));
          const ties = ranked ? tieOrder() : undefined;
          const first = Array.from(topOrder(union, true, need, ties));
          expect(first).toEqual(Array.from(topOrder(every, true, need, ties)));
          if (need <= 300) expect(first).toEqual(Array.from(topByBlockMax(leaves, lengths, norms, matches, need, ties)));
          // The scratch scores it borrowed are left all zeros for the next search.
          expect(scoreUnion(leaves, lengths, norms).scores).toEqual(union.scores);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('ranks and counts an OR window by window as scoring it whole does: the same count, first page and tie order', () => {
    fc.assert(
      fc.property(
        fc.array(tokenList(2500), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, need, ranked, seed) => {
          // Few lengths, so many records tie and the tie order decides pages.
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 5));
          const norms = normsOf(lengths);
          const leaves = leavesOf(lists, lengths, norms);
          const ties = ranked ? tieOrder() : undefined;
          expectRankedAsScoredWhole(leaves, lengths, norms, need, ties);
          // Its window's scratch is left empty: the same lists again give the same answer.
          expectRankedAsScoredWhole(leaves, lengths, norms, need, ties);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('an OR ranked from its best blocks', () => {
  it('skips only records that could not enter: the count, first page and tie order of scoring every record', () => {
    fc.assert(
      fc.property(
        // Lists drawn from one pool, so that records are held by two, three or four of them.
        fc.uniqueArray(fc.integer({ min: 1, max: capacity - 1 }), { minLength: 1, maxLength: 3000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (pool, draws, need, ranked, seed) => {
          const sorted = Int32Array.from(pool.sort((x, y) => x - y));
          const lists = draws.map(([every, salt]) => {
            const ids = sorted.filter((id) => (id ^ salt) % every === 0);
            const held = ids.length > 0 ? ids : sorted.subarray(0, 1);
            // Mostly one or two, now and then many: a few records stand out, as a word in a title does.
            return {
              ids: held,
              counts: Uint32Array.from(held, (id) => ((id * 31 + salt) % 17 === 0 ? 5 + (id % 7) : 1 + ((id + salt) % 2))),
            };
          });
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % (ranked ? 7 : 400)));
          const norms = normsOf(lengths);
          const leaves = leavesOf(lists, lengths, norms);
          expectRankedAsScoredWhole(leaves, lengths, norms, need, ranked ? tieOrder() : undefined);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('an OR whose lists hold mostly the same records', () => {
  it('scores the records its lists share as scoring every record does: the same count, first page and tie order', () => {
    fc.assert(
      fc.property(
        // A word and its transliteration, indexed for the same records: lists of many blocks, each missing a few.
        fc.integer({ min: 200, max: capacity - 1 }),
        fc.integer({ min: 2, max: 3 }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (size, n, need, ranked, seed) => {
          const pool = Int32Array.from({ length: size }, (_, i) => i + 1);
          const lists = Array.from({ length: n }, (_, p) => {
            const ids = pool.filter((id) => ((id * 2654435761 + p * seed) >>> 0) % 13 !== 0);
            // Mostly once; here and there many times, as a word in a title.
            return { ids, counts: Uint32Array.from(ids, (id) => (((id ^ seed) >>> 0) % 41 === 0 ? 4 + (id % 9) : 1)) };
          });
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + (((id * seed) >>> 0) % 300));
          const norms = normsOf(lengths);
          expectRankedAsScoredWhole(leavesOf(lists, lengths, norms), lengths, norms, need, ranked ? tieOrder() : undefined);
        },
      ),
      { numRuns: 120 },
    );
  });
});
