import type { Postings } from '../postings/block-postings';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import type { Matches } from './top-k';

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
