import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from './id-set';

describe('id sets', () => {
  it('count the ids of any range, across word edges and past the capacity', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((capacity) =>
            fc.tuple(
              fc.constant(capacity),
              fc.uniqueArray(fc.nat({ max: capacity - 1 })),
              fc.nat({ max: capacity + 40 }),
              fc.nat({ max: capacity + 40 }),
            ),
          ),
        ([capacity, ids, a, b]) => {
          const set = IdSet.of(ids, capacity);
          const [low, high] = [Math.min(a, b), Math.max(a, b)];
          expect(set.countIn(low, high)).toBe(ids.filter((id) => id >= low && id <= high).length);
          expect(set.countIn(high + 1, low)).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('add ascending ids in runs, dense and sparse, into what they hold already, as added one by one, those past the capacity left out', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 400 })
          .chain((capacity) =>
            fc.tuple(
              fc.constant(capacity),
              fc.uniqueArray(fc.nat({ max: capacity - 1 })),
              fc.oneof(
                fc.uniqueArray(fc.nat({ max: capacity + 40 })),
                fc.uniqueArray(fc.nat({ max: capacity + 40 }), { minLength: capacity >> 1 }),
              ),
            ),
          ),
        ([capacity, held, added]) => {
          const ids = Int32Array.from(added.sort((a, b) => a - b));
          const set = IdSet.of(held, capacity);
          set.addAscending(ids);
          const expected = IdSet.of([...held, ...added], capacity);
          expect(set.toArray()).toEqual(expected.toArray());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keep those of a list of ids they hold, in order, whatever ids the list holds past the capacity', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((capacity) =>
            fc.tuple(fc.constant(capacity), fc.uniqueArray(fc.nat({ max: capacity - 1 })), fc.uniqueArray(fc.nat({ max: capacity + 40 }))),
          ),
        ([capacity, held, listed]) => {
          const set = IdSet.of(held, capacity);
          const ids = Int32Array.from(listed.sort((a, b) => a - b));
          const kept = set.keepHeld(ids, ids.length);
          expect(Array.from(ids.subarray(0, kept))).toEqual(listed.filter((id) => held.includes(id)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
