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
});
