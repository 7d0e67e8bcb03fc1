import type { IdSet } from '../id-set';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import { scratchArray } from '../scratch-arrays';
import { below, blockBounds } from './bounds';
import { BestOf, type Matches } from './top-k';
import { scoredList } from './union';
import type { RecordLengths } from '../postings/record-lengths';

/**
 * Top k by bm25 without scoring every match: block-max MaxScore over windows of record ids.
 *
 * The ids are cut into windows at the block boundaries of the scored list with the most
 * blocks. A window's bound is the sum, over the scored lists, of the largest block bound
 * among their blocks that overlap it (a block's bound: its best score, read from its
 * frontier, postings/block-frontier.ts). While the best k so far all score more than that
 * bound (or as much, when ties go by id), the window is skipped without decoding a block;
 * otherwise its records are scored term by term (each list's blocks in the window, adding
 * into a score per record, in the query's order, so every sum is FTS5's to the bit) and
 * offered to the heap. Only records of `matches` (AND, NOT, filters; undefined: every
 * record of the one list) are scored.
 *
 * Windows rather than WAND's pivot per document: the lists of a search are few, the bound
 * is computed once per window, not once per record, and within a window the scoring loop
 * is the same tight loop as scoring everything (docs/decisions.md).
 */
export function topByBlockMax(
  scored: readonly Leaf[],
  lengths: RecordLengths,
  norms: Float64Array,
  matches: IdSet | undefined,
  need: number,
  ties: Int32Array | undefined,
): Int32Array {
  const best = new BestOf(need, ties);
  const n = scored.length;
  if (n === 0) return best.order();
  const bounds = scored.map(({ postings, idf }) => blockBounds(postings, idf, norms));
  let driver = 0;
  for (let p = 1; p < n; p++) if (scored[p]!.postings.blocks > scored[driver]!.postings.blocks) driver = p;
  const windows = scored[driver]!.postings.lastIds;

  const lists = new Cursors(n);
  const first = lists.first;
  const scores = n > 1 ? scratchArray(lengths, 'window scores', lengths.length, (length) => new Float64Array(length)) : undefined;
  const touched = n > 1 ? scratchArray(lengths, 'window records', lengths.length, (length) => new Int32Array(length)) : undefined;
  const essential = new Uint8Array(n);

  const windowBounds = new Float64Array(n);
  let low = 0;
  for (let w = 0; w <= windows.length; w++) {
    const high = w < windows.length ? windows[w]! : 0x7fffffff;
    let bound = 0;
    for (let p = 0; p < n; p++) {
      const { lastIds, blocks } = scored[p]!.postings;
      const blockBounds = bounds[p]!;
      let b = first[p]!;
      while (b < blocks && lastIds[b]! < low) b++;
      first[p] = b;
      let most = 0;
      for (; b < blocks; b++) {
        if (blockBounds[b]! > most) most = blockBounds[b]!;
        if (lastIds[b]! >= high) break;
      }
      windowBounds[p] = most;
      bound += most;
    }
    // Ties broken by id: a later record that only equals the last of the best comes after it.
    const threshold = best.threshold;
    if (bound < threshold || (!ties && bound === threshold) || (matches && !matches.anyIn(low, high))) {
      low = high + 1;
      continue;
    }
    if (!scores) scoreOne(scored[0]!, lists, 0, low, high, lengths, norms, matches, best);
    else {
      // MaxScore: the lists whose bounds together stay below the k-th best bring in no record
      // of their own; their blocks are decoded only for the others' records that could enter.
      let rest = 0;
      essential.fill(1);
      for (let left = n; left > 0; left--) {
        let smallest = -1;
        for (let p = 0; p < n; p++) if (essential[p] && (smallest < 0 || windowBounds[p]! < windowBounds[smallest]!)) smallest = p;
        if (!below(rest + windowBounds[smallest]!, threshold)) break;
        rest += windowBounds[smallest]!;
        essential[smallest] = 0;
      }
      let found = 0;
      for (let p = 0; p < n; p++)
        if (essential[p]) found = addScores(scored[p]!, lists, p, low, high, lengths, norms, matches, scores, touched!, found);
      if (rest === 0) {
        for (let j = 0; j < found; j++) {
          const id = touched![j]!;
          best.offer(id, scores[id]!);
          scores[id] = 0;
        }
      } else {
        // Ascending, so each list's blocks are looked up forward.
        const candidates = touched!.subarray(0, found).sort();
        for (let j = 0; j < found; j++) {
          const id = candidates[j]!;
          const partial = scores[id]!;
          scores[id] = 0;
          if (!below(partial + rest, best.threshold)) best.offer(id, scoreOf(scored, lists, id, lengths, norms));
        }
      }
    }
    low = high + 1;
  }
  return best.order();
}

/** Per list: its first block not wholly before the window, the block decoded, and where in it the window starts. */
class Cursors {
  readonly first: Int32Array;
  readonly decoded: Int32Array;
  readonly at: Int32Array;
  readonly ids: Int32Array[];
  readonly counts: Uint32Array[];

  constructor(n: number) {
    this.first = new Int32Array(n);
    this.decoded = new Int32Array(n).fill(-1);
    this.at = new Int32Array(n);
    this.ids = new Array<Int32Array>(n).fill(new Int32Array(0));
    this.counts = new Array<Uint32Array>(n).fill(new Uint32Array(0));
  }

  /** List p's block b, decoded once however many windows it spans. */
  load(p: number, b: number, postings: Leaf['postings']): void {
    if (this.decoded[p] === b) return;
    this.ids[p] = postings.ids(b);
    this.counts[p] = postings.counts(b);
    this.decoded[p] = b;
    this.at[p] = 0;
  }
}

/** A record's bm25 over every list, each list's term added in the query's order (FTS5's sum to the bit). */
function scoreOf(scored: readonly Leaf[], lists: Cursors, id: number, lengths: RecordLengths, norms: Float64Array): number {
  let score = 0;
  for (let p = 0; p < scored.length; p++) {
    const { postings, idf } = scored[p]!;
    let b = lists.first[p]!;
    while (b < postings.blocks && postings.lastIds[b]! < id) b++;
    if (b === postings.blocks) continue;
    lists.load(p, b, postings);
    const ids = lists.ids[p]!;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const middle = (lo + hi) >>> 1;
      if (ids[middle]! < id) lo = middle + 1;
      else hi = middle;
    }
    if (ids[lo] === id) score = score + termScore(idf, lists.counts[p]![lo]!, norms[lengths[id]!]!);
  }
  return score;
}

/** Offers each record of the one scored list from `low` to `high` (that `matches` holds) to the heap. */
function scoreOne(
  { postings, idf }: Leaf,
  lists: Cursors,
  p: number,
  low: number,
  high: number,
  lengths: RecordLengths,
  norms: Float64Array,
  matches: IdSet | undefined,
  best: BestOf,
): void {
  for (let b = lists.first[p]!; b < postings.blocks; b++) {
    lists.load(p, b, postings);
    const ids = lists.ids[p]!;
    const counts = lists.counts[p]!;
    let i = lists.at[p]!;
    while (i < ids.length && ids[i]! < low) i++;
    for (; i < ids.length; i++) {
      const id = ids[i]!;
      if (id > high) break;
      if (matches && !matches.has(id)) continue;
      best.offer(id, termScore(idf, counts[i]!, norms[lengths[id]!]!));
    }
    lists.at[p] = i;
    if (postings.lastIds[b]! >= high) break;
  }
}

/**
 * Adds list p's bm25 term to the score of each of its records from `low` to `high` (that
 * `matches` holds), listing in `touched` the records scored for the first time; returns
 * how many `touched` holds. (A loop apart from scoreOne's: as one loop with a branch per
 * record, the first 200 of an OR took two to three times as long.)
 */
function addScores(
  { postings, idf }: Leaf,
  lists: Cursors,
  p: number,
  low: number,
  high: number,
  lengths: RecordLengths,
  norms: Float64Array,
  matches: IdSet | undefined,
  scores: Float64Array,
  touched: Int32Array,
  found: number,
): number {
  for (let b = lists.first[p]!; b < postings.blocks; b++) {
    lists.load(p, b, postings);
    const ids = lists.ids[p]!;
    const counts = lists.counts[p]!;
    let i = lists.at[p]!;
    while (i < ids.length && ids[i]! < low) i++;
    for (; i < ids.length; i++) {
      const id = ids[i]!;
      if (id > high) break;
      if (matches && !matches.has(id)) continue;
      if (scores[id] === 0) touched[found++] = id;
      scores[id] = scores[id]! + termScore(idf, counts[i]!, norms[lengths[id]!]!);
    }
    lists.at[p] = i;
    if (postings.lastIds[b]! >= high) break;
  }
  return found;
}

/**
 * Every match with its score, for the orders block-max cannot prune (worst first, deep
 * pages, matches that hold no scored word and so score 0). `matches` undefined: every
 * record of the one scored list.
 */
export function scoreEverything(scored: readonly Leaf[], lengths: RecordLengths, norms: Float64Array, matches: IdSet | undefined): Matches {
  if (!matches) {
    const { postings, idf } = scored[0]!;
    return scoredList(postings, idf, lengths, norms);
  }
  const byId = scratchArray(lengths, 'window scores', Math.max(lengths.length, matches.capacity), (length) => new Float64Array(length));
  for (const { postings, idf } of scored) {
    for (let b = 0; b < postings.blocks; b++) {
      const blockIds = postings.ids(b);
      const blockCounts = postings.counts(b);
      for (let i = 0; i < blockIds.length; i++) {
        const id = blockIds[i]!;
        if (matches.has(id)) byId[id] = byId[id]! + termScore(idf, blockCounts[i]!, norms[lengths[id]!]!);
      }
    }
  }
  const ids = matches.toIds();
  const scores = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    scores[i] = byId[ids[i]!]!;
    byId[ids[i]!] = 0;
  }
  return { ids, scores };
}
