import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePostings, StoredPostings } from './block-postings';
import { keepHeldInBlocks } from './held-in-blocks';

const capacity = 20_000;
const lengths = new Uint32Array(capacity).fill(7);
const stored = (ids: Int32Array) => new StoredPostings(encodePostings({ ids, counts: new Uint32Array(ids.length).fill(1) }, lengths));
const ascending = (ids: number[]) => Int32Array.from(new Set(ids)).sort();

describe('keepHeldInBlocks', () => {
  it('keeps exactly the records the list holds, in order, decoding only blocks that may hold one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: capacity - 1 }), { minLength: 1, maxLength: 3000, size: 'max' }),
        fc.array(fc.integer({ min: 0, max: capacity - 1 }), { maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 50 }),
        (listIds, strangers, picks) => {
          const list = ascending(listIds);
          // Candidates both held (picked from the list) and not.
          const candidates = ascending([...strangers, ...picks.map((pick) => list[pick % list.length]!)]);
          const postings = stored(list);
          let decoded = 0;
          const ids = postings.ids.bind(postings);
          postings.ids = (b: number) => (decoded++, ids(b));
          const kept = candidates.slice();
          const n = keepHeldInBlocks(postings, kept, kept.length);
          const held = new Set(list);
          expect(Array.from(kept.subarray(0, n))).toEqual(Array.from(candidates).filter((id) => held.has(id)));
          expect(decoded).toBeLessThanOrEqual(Math.min(candidates.length, postings.blocks));
        },
      ),
      { numRuns: 200 },
    );
  });
});
