import type { Postings } from './block-postings';
import { setAscending } from '../id-set';

/** Set bits in a 32-bit word. */
function bitCount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Where each record stands in a postings list, found in constant time: the list's records
 * as a bitset, with the number of records before each word of it. A phrase's positions
 * are found by a record's place in its token's whole-record list; an author's initial is in
 * over half the records, and a phrase of it reaches most of its blocks, whose ids finding
 * the places decoded again for every search. Built once for a common token and kept with
 * its positions (query/kept-blobs.ts): a quarter of a byte per record of the store,
 * whatever the list's length.
 */
export class ListPlaces {
  private readonly words: Uint32Array;
  /** before[w]: how many of the list's records are below word w's first. */
  private readonly before: Uint32Array;

  constructor(postings: Postings) {
    const capacity = postings.blocks === 0 ? 0 : postings.lastIds[postings.blocks - 1]! + 1;
    const words = (this.words = new Uint32Array((capacity + 31) >>> 5));
    for (let b = 0; b < postings.blocks; b++) setAscending(words, postings.ids(b));
    const before = (this.before = new Uint32Array(words.length));
    for (let w = 1; w < words.length; w++) before[w] = before[w - 1]! + bitCount(words[w - 1]!);
  }

  /** The place of record `id` in the list, or -1 where the list does not hold it. */
  placeOf(id: number): number {
    const w = id >>> 5;
    if (w >= this.words.length) return -1;
    const word = this.words[w]!;
    const bit = 1 << (id & 31);
    if ((word & bit) === 0) return -1;
    return this.before[w]! + bitCount(word & (bit - 1));
  }

  /** Memory held, for cache budgets. */
  get bytes(): number {
    return this.words.byteLength + this.before.byteLength;
  }
}
