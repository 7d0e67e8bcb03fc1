import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../id-set';
import { ComputedPostings, encodePostings, StoredPostings, type Postings } from '../postings/block-postings';
import { blockBests } from '../query/bm25';
import type { Leaf } from '../query/compile';
import { scoreEverything, topByBlockMax } from './block-max';
import { capacity, leavesOf, normsOf, tieOrder, tokenList } from './scored-lists.test-support';
import { topOrder } from './top-k';

/**
 * Block-max top k against scoring every match: the same records in the same order for
 * any lists, filter, depth and tie-break, while reading fewer blocks when the best
 * records stand out.
 */

/** A list that counts the blocks read from it. */
function counted(postings: Postings) {
  const reads = { blocks: 0 };
  const wrapped: Postings = {
    docs: postings.docs,
    blocks: postings.blocks,
    lastIds: postings.lastIds,
    frontiers: postings.frontiers,
    ids: (block) => postings.ids(block),
    size: (block) => postings.size(block),
    counts: (block) => {
      reads.blocks++;
      return postings.counts(block);
    },
  };
  return { postings: wrapped, reads };
}

describe('block-max top k', () => {
  it('finds exactly the records and order that scoring every match finds', () => {
    fc.assert(
      fc.property(
        fc.array(tokenList(3000), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, need, filtered, ranked, seed) => {
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 97));
          const norms = normsOf(lengths);
          const leaves = leavesOf(lists, lengths, norms);
          const union = new IdSet(capacity);
          for (const { ids } of lists) union.addAll(ids);
          const filter = IdSet.of(
            Array.from({ length: capacity }, (_, id) => id).filter((id) => (id * seed) % 3 !== 0),
            capacity,
          );
          const matches = filtered ? union.and(filter) : leaves.length > 1 ? union : undefined;
          // Ties broken by a rank other than the id, as the repo_id rank does.
          const ties = ranked ? tieOrder() : undefined;
          const expected = topOrder(scoreEverything(leaves, lengths, norms, matches), true, need, ties);
          expect(Array.from(topByBlockMax(leaves, lengths, norms, matches, need, ties))).toEqual(Array.from(expected));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads only the blocks whose best record could enter the first page', () => {
    // A word in every other record, counted once but four times in a few of the first.
    const lengths = new Uint32Array(100_000).fill(40);
    const ids = Int32Array.from({ length: 50_000 }, (_, i) => 2 * i + 1);
    const counts = Uint32Array.from(ids, (id) => (id < 10_000 && id % 1000 === 1 ? 4 : 1));
    const norms = normsOf(lengths);
    const { postings, reads } = counted(new ComputedPostings({ ids, counts }, blockBests({ ids, counts }, lengths, norms)));
    const leaf: Leaf = { postings, idf: 1.5, scored: true };
    const boosted = Array.from(ids.filter((id) => counts[(id - 1) / 2] === 4));
    // Ties by id or by another rank: the blocks after the best are skipped either way.
    for (const ties of [undefined, Int32Array.from({ length: 100_000 }, (_, id) => 100_000 - id)]) {
      reads.blocks = 0;
      const top = topByBlockMax([leaf], lengths, norms, undefined, 5, ties);
      expect(Array.from(top)).toEqual(ties ? boosted.sort((x, y) => ties[x]! - ties[y]!).slice(0, 5) : boosted.slice(0, 5));
      expect(reads.blocks).toBeLessThan(postings.blocks / 10);
    }
  });

  it('decodes a common word of an AND only for the records that could still enter the first page', () => {
    // A rarer word (every odd multiple of 7) that each of its blocks counts five times once,
    // and six times in its first five records; a common word (every odd id) counted twice
    // here and there. Every window's bound reaches the best five, but few of its records can.
    const capacity = 100_000;
    const lengths = new Uint32Array(capacity).fill(50);
    const norms = normsOf(lengths);
    const common = Int32Array.from({ length: capacity / 2 }, (_, i) => 2 * i + 1);
    const commonCounts = Uint32Array.from(common, (id) => (id % 256 === 3 && id % 7 !== 0 ? 2 : 1));
    const rare = common.filter((id) => id % 7 === 0);
    const rareCounts = Uint32Array.from(rare, (_, i) => (i < 5 ? 6 : i % 128 === 64 ? 5 : 1));
    const lists = [
      counted(new StoredPostings(encodePostings({ ids: rare, counts: rareCounts }, lengths))),
      counted(new StoredPostings(encodePostings({ ids: common, counts: commonCounts }, lengths))),
    ];
    const leaves: Leaf[] = lists.map(({ postings }, i) => ({ postings, idf: i === 0 ? 3 : 1, scored: true }));
    const matches = IdSet.of(Array.from(rare), capacity);
    expect(Array.from(topByBlockMax(leaves, lengths, norms, matches, 5, undefined))).toEqual(Array.from(rare.subarray(0, 5)));
    expect(lists[1]!.reads.blocks).toBeLessThan(lists[1]!.postings.blocks / 4);
  });

  it("bounds a block by its records' best score, not by its largest count over its shortest record", () => {
    // Every block holds long records that count the word five times and short ones that
    // count it once: its largest count over its shortest record would outscore the one
    // short record that counts it twice, which every record of every block falls below.
    const lengths = new Uint32Array(100_000).fill(60);
    const ids = Int32Array.from({ length: 50_000 }, (_, i) => 2 * i + 1);
    for (const id of ids) lengths[id] = id % 4 === 1 ? 400 : 8;
    const counts = Uint32Array.from(ids, (id) => (id % 4 === 1 ? 5 : 1));
    const star = ids[30_001]!;
    counts[30_001] = 2;
    // As stored: the frontier a block keeps for any norms.
    const { postings, reads } = counted(new StoredPostings(encodePostings({ ids, counts }, lengths)));
    const top = topByBlockMax([{ postings, idf: 1.5, scored: true }], lengths, normsOf(lengths), undefined, 1, undefined);
    expect(Array.from(top)).toEqual([star]);
    expect(reads.blocks).toBeLessThan(postings.blocks / 10);
  });
});
