import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSize, encodePostings, StoredPostings } from '../../../engine/postings/block-postings';
import { ChangedIds } from './postings-tails';

/**
 * A write that changes records already in a list rewrites the list; whether it does is asked
 * of the stored list's blocks (ChangedIds.anyIn), which must agree with the list's ids.
 */
describe('changed ids', () => {
  it('are found in a stored list exactly when the list holds one of them, over lists of one block and many', () => {
    const ids = fc.uniqueArray(fc.integer({ min: 0, max: 5 * blockSize }), { maxLength: 4 * blockSize + 3 });
    fc.assert(
      fc.property(ids, fc.uniqueArray(fc.integer({ min: 0, max: 5 * blockSize + 2 }), { minLength: 1, maxLength: 300 }), (raw, changed) => {
        const list = Int32Array.from(raw.sort((a, b) => a - b));
        const stored = new StoredPostings(
          encodePostings({ ids: list, counts: new Uint32Array(list.length).fill(1) }, new Array(5 * blockSize + 1).fill(9)),
        );
        const held = new Set(list);
        expect(new ChangedIds(changed, 0).anyIn(stored)).toBe(changed.some((id) => held.has(id)));
      }),
    );
  });
});
