import type { Postings, TokenPostings } from '../postings/block-postings';
import { decodePostings } from '../postings/block-postings';

/**
 * A pair's list over some columns, where the pair keeps lists of its own in the others only
 * (postings/pairs.ts's `pairColumns`): its whole-record list less those columns' lists.
 * A record's count over whole records is the sum of its columns' weighted counts, so what
 * is left is exactly the count in the columns searched, and a record left with none is not
 * a match (biblio= searches every column but the full text, which keeps its pair lists).
 */
export function pairListWithout(whole: Postings, others: readonly (Postings | undefined)[]): TokenPostings {
  const { ids, counts } = decodePostings(whole);
  for (const other of others) {
    if (!other) continue;
    const taken = decodePostings(other);
    // Every record of a column's list is in the whole-record list: walk both in id order.
    for (let i = 0, at = 0; i < taken.ids.length; i++) {
      while (ids[at]! < taken.ids[i]!) at++;
      counts[at]! -= taken.counts[i]!;
    }
  }
  let n = 0;
  for (let i = 0; i < ids.length; i++) {
    if (counts[i] === 0) continue;
    ids[n] = ids[i]!;
    counts[n++] = counts[i]!;
  }
  return { ids: ids.subarray(0, n), counts: counts.subarray(0, n) };
}
