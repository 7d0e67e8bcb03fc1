import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import { scratchArray } from '../scratch-arrays';
import type { Matches } from './top-k';

/**
 * Every record of the scored lists with its score, for a search whose matches are exactly
 * those records (a word, or an OR of words and phrases, with no filter): one pass over
 * each list, in the query's order, adds its bm25 term into a score per record (so every
 * sum is FTS5's to the bit), and the records met are the matches, so the count comes with
 * the scores. Where the lists are short this costs less than the two passes of counting
 * through bitsets and ranking by block-max, and as little as tantivy's union with its count.
 */
export function scoreUnion(scored: readonly Leaf[], lengths: Uint32Array, norms: Float64Array): Matches {
  // Lent by block-max as well (its window scores), and left all zeros again.
  const byId = scratchArray(lengths, 'window scores', lengths.length, (length) => new Float64Array(length));
  const met = scratchArray(lengths, 'window records', lengths.length, (length) => new Int32Array(length));
  let found = 0;
  for (const { postings, idf } of scored) {
    for (let b = 0; b < postings.blocks; b++) {
      const ids = postings.ids(b);
      const counts = postings.counts(b);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const score = byId[id]!;
        // A term is never 0 (the idf is at least 1e-6), so 0 is a record not met yet.
        if (score === 0) met[found++] = id;
        byId[id] = score + termScore(idf, counts[i]!, norms[lengths[id]!]!);
      }
    }
  }
  const ids = met.slice(0, found);
  if (scored.length > 1) ids.sort();
  const scores = new Float64Array(found);
  for (let i = 0; i < found; i++) {
    const id = ids[i]!;
    scores[i] = byId[id]!;
    byId[id] = 0;
  }
  return { ids, scores };
}
