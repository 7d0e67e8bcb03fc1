import { FrontiersBuilder, type BlockFrontiers } from '../postings/block-frontier';
import { blockSize, type TokenPostings } from '../postings/block-postings';
import type { PostingsReader } from '../postings/index-reader';

/**
 * bm25 as FTS5's bm25() computes it, to the bit: for a word or phrase with weighted count
 * f in a record of D tokens, idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgdl)), the terms of a
 * query summed in its order with the same floating-point operations as fts5_aux.c.
 */

export const k1 = 1.2;
export const b = 0.75;

/**
 * k1(1 − b + b·D/avgdl) for every record length D, computed once per reader: the same
 * double the per-match formula would give, for a table lookup instead of two divisions.
 */
const normsByReader = new WeakMap<PostingsReader, Float64Array>();
export function lengthNorms(reader: PostingsReader): Float64Array {
  let norms = normsByReader.get(reader);
  if (!norms) {
    const { lengths } = reader;
    let longest = 0;
    for (let id = 0; id < lengths.length; id++) if (lengths[id]! > longest) longest = lengths[id]!;
    norms = new Float64Array(longest + 1);
    for (let D = 0; D <= longest; D++) norms[D] = k1 * (1 - b + (b * D) / reader.averageLength);
    normsByReader.set(reader, norms);
  }
  return norms;
}

/** One word's or phrase's bm25 term for count `f` and length norm `norm`. */
export const termScore = (idf: number, f: number, norm: number) => idf * ((f * (k1 + 1.0)) / (f + norm));

/**
 * Each block's frontier for a list computed for one search: the one (count, length) pair
 * that scores best under these norms, found with a division per record, where a stored
 * list keeps the pairs that could win under any (postings/block-frontier.ts).
 */
export function blockBests({ ids, counts }: TokenPostings, lengths: ArrayLike<number>, norms: ArrayLike<number>): BlockFrontiers {
  const blocks = Math.ceil(ids.length / blockSize);
  const frontiers = new FrontiersBuilder(blocks);
  for (let b = 0; b < blocks; b++) {
    const end = Math.min(ids.length, (b + 1) * blockSize);
    let best = b * blockSize;
    let bestScore = -1;
    for (let i = best; i < end; i++) {
      // An idf of 1: the idf scales every record of the list alike.
      const score = termScore(1, counts[i]!, norms[lengths[ids[i]!] ?? 0] ?? 0);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    frontiers.push(counts[best]!, lengths[ids[best]!] ?? 0);
    frontiers.endBlock();
  }
  return frontiers.build();
}
