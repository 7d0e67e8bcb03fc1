import type { IdSet } from '../id-set';
import type { Postings } from '../postings/block-postings';
import { isDense } from '../postings/dense-sets';
import { fewAgainst } from '../postings/held-in-blocks';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import type { Matches } from './top-k';
import type { RecordLengths } from '../postings/record-lengths';

/**
 * Every match with its score, read from the matches' side: where a search's matches are
 * few against its lists (an AND of a rare word and a common one), the matches lead, as
 * tantivy's intersection lets its shortest side lead. A list is read only in the blocks
 * that hold a match; a list the reader keeps as a bitset (a dense one, dense-sets.ts, which
 * counting the matches read already) is not decoded at all: a match's place in its block
 * is the number of the list's records before it there, and its count is read alone
 * (Postings.countAt). One word narrowed by a filter (a date range) is scored so too. Each list's terms are added in
 * the query's order, so every score is FTS5's sum to the bit, as scoreEverything's.
 */
export function scoreMatches(
  scored: readonly Leaf[],
  matches: IdSet,
  lengths: RecordLengths,
  norms: Float64Array,
  /** How many matches there are, where already counted. */
  count?: number,
): Matches {
  return scoreRecords(scored, matches.toIds(count), matches.capacity, lengths, norms);
}

/** Every one of `ids` (matches, ascending, below `capacity`) with its score, as scoreMatches. */
export function scoreRecords(
  scored: readonly Leaf[],
  ids: Int32Array,
  capacity: number,
  lengths: RecordLengths,
  norms: Float64Array,
): Matches {
  const scores = new Float64Array(ids.length);
  for (const { postings, idf } of scored) {
    // A list in an eighth of the records or more is kept as a set (matching.ts counts them so too);
    // matches in fewer than half its blocks read those blocks rather than make the set, which decodes every block.
    const records =
      postings.countAt && isDense(postings.docs, capacity) && !fewAgainst(ids.length, postings) ? postings.records?.() : undefined;
    if (records) addByPlace(postings, idf, records, ids, scores, lengths, norms);
    else addByBlock(postings, idf, ids, scores, lengths, norms);
  }
  return { ids, scores };
}

/** Adds the list's term to the score of each match it holds, the list's blocks decoded only where a match may be. */
function addByBlock(
  postings: Postings,
  idf: number,
  ids: Int32Array,
  scores: Float64Array,
  lengths: RecordLengths,
  norms: Float64Array,
): void {
  const { lastIds, blocks } = postings;
  let j = 0;
  for (let b = 0; b < blocks && j < ids.length; b++) {
    if (lastIds[b]! < ids[j]!) continue;
    const blockIds = postings.ids(b);
    let counts: Uint32Array | undefined;
    for (let i = 0; i < blockIds.length && j < ids.length;) {
      const id = blockIds[i]!;
      const match = ids[j]!;
      if (id < match) i++;
      else if (match < id) j++;
      else {
        counts ??= postings.counts(b);
        scores[j] = scores[j]! + termScore(idf, counts[i]!, norms[lengths[id]!]!);
        i++;
        j++;
      }
    }
  }
}

/** Adds the list's term to the score of each match in `records` (the list's records), no block decoded. */
function addByPlace(
  postings: Postings,
  idf: number,
  records: IdSet,
  ids: Int32Array,
  scores: Float64Array,
  lengths: RecordLengths,
  norms: Float64Array,
): void {
  const { lastIds, blocks } = postings;
  let b = 0;
  // The list's records in the block up to the last match, counted on from there: matches ascend,
  // so each stretch of the set is counted once, not again from the block's start per match.
  let counted = 0;
  let countedTo = -1;
  for (let j = 0; j < ids.length; j++) {
    const id = ids[j]!;
    if (!records.has(id)) continue;
    while (b < blocks && lastIds[b]! < id) b++;
    const first = b > 0 ? lastIds[b - 1]! + 1 : 0;
    if (countedTo < first) {
      counted = 0;
      countedTo = first - 1;
    }
    counted += records.countIn(countedTo + 1, id);
    countedTo = id;
    scores[j] = scores[j]! + termScore(idf, postings.countAt!(b, counted - 1), norms[lengths[id]!]!);
  }
}
