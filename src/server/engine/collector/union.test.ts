import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../id-set';
import { ComputedPostings, encodePostings, StoredPostings } from '../postings/block-postings';
import { b, blockBests, k1 } from '../query/bm25';
import type { Leaf } from '../query/compile';
import { scoreEverything, topByBlockMax } from './block-max';
import { topOrder } from './top-k';
import { scoreUnion } from './union';

/**
 * An OR scored in one pass over its lists: every record of any list, each with the score
 * that scoring every match of the union gives it (to the bit), so its count, its first
 * page and any deeper page are those of counting through bitsets and ranking by block-max.
 */

const capacity = 6000;

const list = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: capacity - 1 }), { minLength: 1, maxLength: 2000 }), fc.integer({ min: 1, max: 5 }))
  .map(([ids, spread]) => {
    const sorted = Int32Array.from(ids.sort((x, y) => x - y));
    return { ids: sorted, counts: Uint32Array.from(sorted, (id) => 1 + ((id * 7 + spread) % (spread * 3))) };
  });

describe('an OR scored in one pass', () => {
  it('finds every record of its lists with the scores, count and order of bitsets and block-max', () => {
    fc.assert(
      fc.property(
        fc.array(list, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, need, ranked, seed) => {
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 97));
          const average = lengths.reduce((sum, length) => sum + length, 0) / lengths.length;
          const norms = Float64Array.from({ length: 98 }, (_, D) => k1 * (1 - b + (b * D) / average));
          const leaves: Leaf[] = lists.map((tokens, i) => ({
            postings:
              i % 2
                ? new ComputedPostings(tokens, blockBests(tokens, lengths, norms))
                : new StoredPostings(encodePostings(tokens, lengths)),
            idf: 0.5 + i * 0.75,
            scored: true,
          }));
          const matches = new IdSet(capacity);
          for (const { ids } of lists) matches.addAll(ids);
          const every = scoreEverything(leaves, lengths, norms, matches);
          const union = scoreUnion(leaves, lengths, norms);
          expect(union.ids.length).toBe(matches.count());
          expect(Array.from(union.ids)).toEqual(Array.from(every.ids));
          expect(Array.from(union.scores)).toEqual(Array.from(every.scores));
          const ties = ranked ? Int32Array.from({ length: capacity }, (_, id) => (id * 7919) % capacity) : undefined;
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
});
