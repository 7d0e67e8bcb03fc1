import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../id-set';
import { encodePostings, StoredPostings, type Postings } from '../postings/block-postings';
import type { Leaf } from '../query/compile';
import { scoreEverything } from './block-max';
import { capacity, leavesOf, normsOf, tokenList } from './scored-lists.test-support';
import { scoreMatches } from './scored-matches';

/**
 * Scoring from the matches' side against scoring every match: the same scores to the bit,
 * whether a list is read by blocks or, kept as a set, by a match's place in its block, and
 * no block of a list kept as a set decoded.
 */

/** A stored list whose records come as a set too (as a reader keeps a dense list's), counting the blocks decoded. */
function withRecords({ ids, counts }: { ids: Int32Array; counts: Uint32Array }, lengths: Uint32Array) {
  const reads = { blocks: 0 };
  const stored = new StoredPostings(encodePostings({ ids, counts }, lengths), () => IdSet.of(ids, capacity));
  const postings: Postings = {
    docs: stored.docs,
    blocks: stored.blocks,
    lastIds: stored.lastIds,
    frontiers: stored.frontiers,
    records: stored.records,
    size: (block) => stored.size(block),
    ids: (block) => {
      reads.blocks++;
      return stored.ids(block);
    },
    counts: (block) => {
      reads.blocks++;
      return stored.counts(block);
    },
    countAt: (block, i) => stored.countAt(block, i),
  };
  return { postings, reads };
}

describe('scoring the matches from their side', () => {
  it('gives every match the score scoring every match gives, for any lists and matches', () => {
    fc.assert(
      fc.property(
        fc.array(tokenList(3000), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.constantFrom('and', 'or', 'filtered'),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, kept, combine, seed) => {
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 97));
          const norms = normsOf(lengths);
          const leaves: Leaf[] = leavesOf(lists, lengths, norms).map((leaf, i) =>
            kept[i] ? { ...leaf, postings: withRecords(lists[i]!, lengths).postings } : leaf,
          );
          const sets = lists.map(({ ids }) => IdSet.of(ids, capacity));
          let matches = combine === 'and' ? sets.reduce((all, set) => all.and(set)) : sets.reduce((any, set) => any.or(set));
          if (combine === 'filtered')
            matches = matches.and(
              IdSet.of(
                Array.from({ length: capacity }, (_, id) => id).filter((id) => (id * seed) % 3 !== 0),
                capacity,
              ),
            );
          const expected = scoreEverything(leaves, lengths, norms, matches);
          const scored = scoreMatches(leaves, matches, lengths, norms);
          expect(Array.from(scored.ids)).toEqual(Array.from(expected.ids));
          expect(Array.from(scored.scores)).toEqual(Array.from(expected.scores));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a rare word with a common one kept as a set, decoding none of the common one', () => {
    const lengths = Uint32Array.from({ length: capacity }, (_, id) => 5 + (id % 40));
    const norms = normsOf(lengths);
    const common = Int32Array.from({ length: capacity / 2 }, (_, k) => 2 * k + 1);
    const rare = Int32Array.from({ length: 40 }, (_, k) => 1 + k * 140);
    const lists = [rare, common].map((ids) => ({ ids, counts: Uint32Array.from(ids, (id) => 1 + (id % 3)) }));
    const kept = withRecords(lists[1]!, lengths);
    const leaves: Leaf[] = [
      { ...leavesOf([lists[0]!], lengths, norms)[0]!, idf: 2 },
      { postings: kept.postings, idf: 0.1, scored: true },
    ];
    const matches = IdSet.of(rare, capacity).and(IdSet.of(common, capacity));
    const scored = scoreMatches(leaves, matches, lengths, norms);
    expect(kept.reads.blocks).toBe(0);
    expect(scored.ids).toHaveLength(40);
    expect(Array.from(scored.scores)).toEqual(Array.from(scoreEverything(leaves, lengths, norms, matches).scores));
  });
});
