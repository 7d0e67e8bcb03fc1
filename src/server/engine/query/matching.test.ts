import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreEverything } from '../collector/block-max';
import { capacity, normsOf, tokenList } from '../collector/scored-lists.test-support';
import { scoreRecords } from '../collector/scored-matches';
import { IdSet } from '../id-set';
import { encodePostings, StoredPostings } from '../postings/block-postings';
import type { Leaf } from './compile';
import { recordsLedByShortest } from './matching';

/**
 * An AND read from its shortest list's side against the sets of every list ANDed: the
 * same records, in order, whichever list is shortest, whether the others come as sets
 * their reader keeps or as lists, and with or without a filter; and scored from that side,
 * the scores of scoring every match, to the bit.
 */
describe("an AND read from its shortest list's side", () => {
  it('matches the records every list and the filter hold, and scores them as scoring every match does', () => {
    fc.assert(
      fc.property(
        fc.array(tokenList(2500), { minLength: 2, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (lists, kept, filtered, seed) => {
          const lengths = Uint32Array.from({ length: capacity }, (_, id) => 1 + ((id * seed) % 97));
          const leaves: Leaf[] = lists.map((list, i) => ({
            postings: new StoredPostings(encodePostings(list, lengths), kept[i] ? () => IdSet.of(list.ids, capacity) : undefined),
            idf: 0.5 + i * 0.75,
            scored: true,
          }));
          const filter = filtered
            ? IdSet.of(
                Array.from({ length: capacity }, (_, id) => id).filter((id) => (id * seed) % 3 !== 0),
                capacity,
              )
            : undefined;
          let expected = lists.map(({ ids }) => IdSet.of(ids, capacity)).reduce((all, set) => all.and(set));
          if (filter) expected = expected.and(filter);
          const led = recordsLedByShortest(leaves, capacity, filter);
          expect(Array.from(led)).toEqual(expected.toArray());
          const norms = normsOf(lengths);
          expect(Array.from(scoreRecords(leaves, led, capacity, lengths, norms).scores)).toEqual(
            Array.from(scoreEverything(leaves, lengths, norms, expected).scores),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
