import type { Postings } from '../postings/block-postings';
import { termScore } from '../query/bm25';

/** Each block's best bm25 term: the best of its frontier's pairs (postings/block-frontier.ts). */
export function blockBounds({ blocks, frontiers }: Postings, idf: number, norms: Float64Array): Float64Array {
  const { starts, counts, lengths } = frontiers;
  const bounds = new Float64Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let best = 0;
    for (let k = starts[b]!; k < starts[b + 1]!; k++) {
      // A length past the norms' table (none the reader knows) bounds as the shortest could.
      const score = termScore(idf, counts[k]!, norms[lengths[k]!] ?? 0);
      if (score > best) best = score;
    }
    bounds[b] = best;
  }
  return bounds;
}

/**
 * Whether a bound surely falls short of the k-th best score: partial sums are added in
 * another order than a record's score is, so a bound within rounding of it never counts as short.
 */
export const below = (bound: number, threshold: number) => bound * (1 + 1e-9) < threshold;
