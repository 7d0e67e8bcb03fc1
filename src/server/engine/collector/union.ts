import type { Postings } from '../postings/block-postings';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import type { BestOf, Matches } from './top-k';

/**
 * Every record of the scored lists with its score, for a search whose matches are exactly
 * those records (a word, or an OR of words and phrases, with no filter): each list is
 * decoded and scored in one pass and merged by id into the lists before it, in the query's
 * order, so a record's score is its terms added as FTS5 adds them (to the bit), and the
 * records met are the matches, so the count comes with the scores. Where the lists are
 * short this costs less than the two passes of counting through bitsets and ranking by
 * block-max, and it reads memory in order: adding into a score per record id and sorting
 * the ids met cost three times as much.
 */
export function scoreUnion(scored: readonly Leaf[], lengths: Uint32Array, norms: Float64Array): Matches {
  let union: Matches = { ids: new Int32Array(0), scores: new Float64Array(0) };
  scored.forEach(({ postings, idf }, p) => {
    const list = scoredList(postings, idf, lengths, norms);
    union = p === 0 ? list : merged(union, list);
  });
  return union;
}

/** One list's records and their bm25 terms. */
export function scoredList(postings: Postings, idf: number, lengths: Uint32Array, norms: Float64Array): Matches {
  const ids = new Int32Array(postings.docs);
  const scores = new Float64Array(postings.docs);
  for (let b = 0, at = 0; b < postings.blocks; b++) {
    const blockIds = postings.ids(b);
    const counts = postings.counts(b);
    for (let i = 0; i < blockIds.length; i++, at++) {
      const id = blockIds[i]!;
      ids[at] = id;
      scores[at] = termScore(idf, counts[i]!, norms[lengths[id]!]!);
    }
  }
  return { ids, scores };
}

/** Two lists' records by id, the terms of a record in both added, the first list's first. */
function merged({ ids, scores }: Matches, { ids: nextIds, scores: nextScores }: Matches): Matches {
  const outIds = new Int32Array(ids.length + nextIds.length);
  const outScores = new Float64Array(outIds.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < ids.length && j < nextIds.length) {
    const a = ids[i]!;
    const c = nextIds[j]!;
    if (a < c) {
      outIds[n] = a;
      outScores[n++] = scores[i++]!;
    } else if (c < a) {
      outIds[n] = c;
      outScores[n++] = nextScores[j++]!;
    } else {
      outIds[n] = a;
      outScores[n++] = scores[i++]! + nextScores[j++]!;
    }
  }
  for (; i < ids.length; i++, n++) {
    outIds[n] = ids[i]!;
    outScores[n] = scores[i]!;
  }
  for (; j < nextIds.length; j++, n++) {
    outIds[n] = nextIds[j]!;
    outScores[n] = nextScores[j]!;
  }
  return { ids: outIds.subarray(0, n), scores: outScores.subarray(0, n) };
}

/** Record ids a window of topOfUnion spans: its scores and bitset stay in the processor's nearest caches. */
const horizon = 4096;
const windowScores = new Float64Array(horizon);
const windowBits = new Int32Array(horizon >>> 5);

/**
 * The best of an OR's records offered to `best`, with no list of its matches made; returns
 * how many records it matched (its count). The ids are walked in windows of `horizon`: each
 * list in the query's order adds its terms for the window's records into a score per slot
 * (the first term set, so a record's sum is FTS5's, as scoreUnion's), a bitset notes the
 * slots met, and the bitset is read out in id order, scores offered and slots counted. No
 * array the size of the matches is allocated, and nothing is sorted.
 */
export function topOfUnion(scored: readonly Leaf[], lengths: Uint32Array, norms: Float64Array, best: BestOf): number {
  const n = scored.length;
  const blockOf = new Int32Array(n);
  const at = new Int32Array(n);
  const ids: Int32Array[] = [];
  const counts: Uint32Array[] = [];
  for (const { postings } of scored) {
    ids.push(postings.blocks > 0 ? postings.ids(0) : new Int32Array(0));
    counts.push(postings.blocks > 0 ? postings.counts(0) : new Uint32Array(0));
  }
  const scores = windowScores;
  const bits = windowBits;
  let total = 0;
  for (;;) {
    let low = 0x7fffffff;
    for (let p = 0; p < n; p++) if (at[p]! < ids[p]!.length && ids[p]![at[p]!]! < low) low = ids[p]![at[p]!]!;
    if (low === 0x7fffffff) break;
    const high = low + horizon;
    for (let p = 0; p < n; p++) {
      const { postings, idf } = scored[p]!;
      let blockIds = ids[p]!;
      let blockCounts = counts[p]!;
      let i = at[p]!;
      for (;;) {
        for (; i < blockIds.length; i++) {
          const id = blockIds[i]!;
          if (id >= high) break;
          const slot = id - low;
          const term = termScore(idf, blockCounts[i]!, norms[lengths[id]!]!);
          const word = slot >>> 5;
          const bit = 1 << (slot & 31);
          if ((bits[word]! & bit) === 0) {
            bits[word]! |= bit;
            scores[slot] = term;
          } else scores[slot] = scores[slot]! + term;
        }
        if (i < blockIds.length || blockOf[p]! + 1 >= postings.blocks) break;
        const b = ++blockOf[p]!;
        blockIds = ids[p] = postings.ids(b);
        blockCounts = counts[p] = postings.counts(b);
        i = 0;
      }
      at[p] = i;
    }
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!;
      if (word === 0) continue;
      bits[w] = 0;
      while (word !== 0) {
        const lowest = word & -word;
        const slot = (w << 5) + 31 - Math.clz32(lowest);
        best.offer(low + slot, scores[slot]!);
        total++;
        word ^= lowest;
      }
    }
  }
  return total;
}
