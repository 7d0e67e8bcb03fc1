import type { IdSet } from '../id-set';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import type { Matches } from './top-k';

/**
 * Every match of one scored word narrowed by a filter to a few of its records (a word in
 * a date range), scored without decoding the word's ids: where the reader keeps the word's
 * records as a bitset (dense-sets.ts), a match's place in its block is the number of the
 * word's records before it in the block, and its count is read alone (Postings.countAt),
 * no block decoded. The filter drives, as tantivy's intersection lets its shortest side lead.
 */
export function scoreFewMatches(
  { postings, idf }: Leaf,
  records: IdSet,
  matches: IdSet,
  lengths: Uint32Array,
  norms: Float64Array,
  /** How many matches there are, where already counted. */
  count?: number,
): Matches {
  const ids = matches.toIds(count);
  const scores = new Float64Array(ids.length);
  const { lastIds, blocks } = postings;
  const countAt = postings.countAt ? (b: number, i: number) => postings.countAt!(b, i) : (b: number, i: number) => postings.counts(b)[i]!;
  let b = 0;
  // The word's records in its block up to the last match, counted on from there: matches ascend,
  // so each stretch of the bitset is counted once, not again from the block's start per match.
  let blockStart = 0;
  let counted = 0;
  let countedTo = -1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    while (b < blocks && lastIds[b]! < id) b++;
    const first = b > 0 ? lastIds[b - 1]! + 1 : 0;
    if (first !== blockStart || countedTo < first) {
      blockStart = first;
      counted = 0;
      countedTo = first - 1;
    }
    counted += records.countIn(countedTo + 1, id);
    countedTo = id;
    scores[i] = termScore(idf, countAt(b, counted - 1), norms[lengths[id]!]!);
  }
  return { ids, scores };
}
