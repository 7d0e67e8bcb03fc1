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
    const longest = reader.lengths.reduce((max, length) => (length > max ? length : max), 0);
    norms = new Float64Array(longest + 1);
    for (let D = 0; D <= longest; D++) norms[D] = k1 * (1 - b + (b * D) / reader.averageLength);
    normsByReader.set(reader, norms);
  }
  return norms;
}

/** One word's or phrase's bm25 term for count `f` and length norm `norm`. */
export const termScore = (idf: number, f: number, norm: number) => idf * ((f * (k1 + 1.0)) / (f + norm));
