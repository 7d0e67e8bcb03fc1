import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSize, decodeIds, encodePostings, StoredPostings } from './block-postings';
import { ListPlaces } from './list-places';

describe('a list’s places', () => {
  it('says where each record stands in the list, and -1 for every record it does not hold, across blocks and words', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: 6 * blockSize }), { maxLength: 4 * blockSize, size: 'max' }), (raw) => {
        const ids = Int32Array.from(raw.sort((a, b) => a - b));
        const lengths = new Uint32Array(6 * blockSize + 1).fill(10);
        const postings = new StoredPostings(encodePostings({ ids, counts: new Uint32Array(ids.length).fill(1) }, lengths));
        expect(decodeIds(postings)).toEqual(ids);
        const places = new ListPlaces(postings);
        const expected = new Map(Array.from(ids, (id, place) => [id, place]));
        for (let id = 0; id <= 6 * blockSize + 40; id++) expect(places.placeOf(id)).toBe(expected.get(id) ?? -1);
      }),
    );
  });
});
