import type { Postings } from '../postings/block-postings';
import type { Leaf } from '../query/compile';
import { termScore } from '../query/bm25';
import { below, blockBounds } from './bounds';
import { seek } from '../postings/seek';
import { scratchArray } from '../scratch-arrays';
import type { BestOf, Matches } from './top-k';
import type { RecordLengths } from '../postings/record-lengths';

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
export function scoreUnion(scored: readonly Leaf[], lengths: RecordLengths, norms: Float64Array): Matches {
  let union: Matches = { ids: new Int32Array(0), scores: new Float64Array(0) };
  scored.forEach(({ postings, idf }, p) => {
    const list = scoredList(postings, idf, lengths, norms);
    union = p === 0 ? list : merged(union, list);
  });
  return union;
}

/** One list's records and their bm25 terms. */
export function scoredList(postings: Postings, idf: number, lengths: RecordLengths, norms: Float64Array): Matches {
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

/** Every id of an OR's lists, list after list; the records two or more lists hold, their norms and scores: grown, never shrunk. */
let decoded: Int32Array = new Int32Array(1024);
let sharedIds: Int32Array = new Int32Array(256);
let sharedNorms: Float64Array = new Float64Array(256);
let sharedScores: Float64Array = new Float64Array(256);

/**
 * The best of an OR's records offered to `best`, with no list of its matches made; returns
 * how many records it matched (its count). Reading a record's length is most of what
 * scoring it costs (the lengths are read out of order, far apart), and most records of an
 * OR of two words hold one of them, a few times; so:
 * - every list's ids are decoded (their counts unread) into a bitset of the records met,
 *   which counts them, and a record met again is noted as held by more than one list;
 * - those records are scored first, list by list in the query's order (FTS5's sum, to the
 *   bit), and offered: they are the likeliest to be among the best;
 * - a record only one list holds scores its one term: it is read only in a block whose
 *   bound (bounds.ts) could still enter the heap, and only where its count could enter
 *   with the block's shortest length. Each list's best block is read first, so the heap's
 *   last is soon high.
 * Nothing the size of the matches is allocated, and nothing is sorted but the shared records.
 */
export function topOfUnion(scored: readonly Leaf[], lengths: RecordLengths, norms: Float64Array, best: BestOf): number {
  const n = scored.length;
  let docs = 0;
  let lowest = 0x7fffffff;
  let highest = -1;
  for (const { postings } of scored) {
    docs += postings.docs;
    if (postings.blocks === 0) continue;
    lowest = Math.min(lowest, postings.ids(0)[0]!);
    highest = Math.max(highest, postings.lastIds[postings.blocks - 1]!);
  }
  if (highest < 0) return 0;
  if (decoded.length < docs) decoded = new Int32Array(Math.max(docs, 2 * decoded.length));
  const words = (highest >>> 5) + 1;
  // Lent by the reader, and left all zeros.
  const met = scratchArray(lengths, 'union records', words, (length) => new Int32Array(length));
  const again = scratchArray(lengths, 'union shared records', words, (length) => new Int32Array(length));
  let total = 0;
  let shared = 0;
  /** Where each list's ids start in `decoded`, and each of its blocks' from there. */
  const listStarts = new Int32Array(n + 1);
  const blockStarts: Int32Array[] = [];
  for (let p = 0, at = 0; p < n; p++) {
    const { postings } = scored[p]!;
    const starts = new Int32Array(postings.blocks + 1);
    listStarts[p] = at;
    for (let b = 0; b < postings.blocks; b++) {
      starts[b] = at - listStarts[p]!;
      const blockIds = postings.ids(b);
      decoded.set(blockIds, at);
      at += blockIds.length;
      if (p === 0) {
        // The first list's ids are distinct: set, not tested.
        for (let i = 0; i < blockIds.length; i++) met[blockIds[i]! >>> 5]! |= 1 << (blockIds[i]! & 31);
        total += blockIds.length;
        continue;
      }
      for (let i = 0; i < blockIds.length; i++) {
        const id = blockIds[i]!;
        const word = id >>> 5;
        const bit = 1 << (id & 31);
        const before = met[word]!;
        if ((before & bit) === 0) {
          met[word] = before | bit;
          total++;
        } else if ((again[word]! & bit) === 0) {
          again[word]! |= bit;
          if (shared === sharedIds.length) sharedIds = grown(sharedIds);
          sharedIds[shared++] = id;
        }
      }
    }
    starts[postings.blocks] = at - listStarts[p]!;
    blockStarts.push(starts);
    listStarts[p + 1] = at;
  }
  met.fill(0, lowest >>> 5, words);
  // Met in ascending order already where one list found them all (an OR of two words).
  const sharedSorted = ascending(sharedIds, shared) ? sharedIds.subarray(0, shared) : sharedIds.subarray(0, shared).sort();
  for (let j = 0; j < shared; j++) again[sharedSorted[j]! >>> 5] = 0;

  // The shared records' scores, list by list in the query's order.
  if (sharedScores.length < shared) {
    sharedScores = new Float64Array(sharedIds.length);
    sharedNorms = new Float64Array(sharedIds.length);
  }
  for (let j = 0; j < shared; j++) {
    sharedScores[j] = 0;
    sharedNorms[j] = norms[lengths[sharedSorted[j]!]!]!;
  }
  for (let p = 0; p < n && shared > 0; p++) addSharedTerms(scored[p]!, blockStarts[p]!, listStarts[p]!, sharedSorted);
  let threshold = best.threshold;
  for (let j = 0; j < shared; j++) {
    const score = sharedScores[j]!;
    if (score < threshold) continue;
    best.offer(sharedSorted[j]!, score);
    threshold = best.threshold;
  }

  // The records one list holds, where they could enter: each list's best block first.
  const bounds = scored.map(({ postings, idf }) => blockBounds(postings, idf, norms));
  const firsts = new Int32Array(n).fill(-1);
  for (let round = 0; round < 2; round++) {
    for (let p = 0; p < n; p++) {
      const { postings, idf } = scored[p]!;
      const { starts: pairs, lengths: pairLengths, whole } = postings.frontiers;
      const blockBounds = bounds[p]!;
      const starts = blockStarts[p]!;
      const from = listStarts[p]!;
      let b = 0;
      let last = postings.blocks;
      if (round === 0) {
        for (let c = 1; c < postings.blocks; c++) if (blockBounds[c]! > blockBounds[b]!) b = c;
        firsts[p] = b;
        last = Math.min(b + 1, last);
      }
      for (; b < last; b++) {
        if ((round === 1 && b === firsts[p]) || below(blockBounds[b]!, threshold)) continue;
        // A whole frontier's lengths fall pair by pair: its last is its block's shortest (else any length could be).
        const shortest = whole ? (norms[pairLengths[pairs[b + 1]! - 1]!] ?? 0) : 0;
        const blockCounts = postings.counts(b);
        const first = from + starts[b]!;
        const size = starts[b + 1]! - starts[b]!;
        // The shared records from the block's first on (scored already).
        let lo = 0;
        let hi = shared;
        while (lo < hi) {
          const middle = (lo + hi) >>> 1;
          if (sharedSorted[middle]! < decoded[first]!) lo = middle + 1;
          else hi = middle;
        }
        let j = lo;
        let next = j < shared ? sharedSorted[j]! : 0x7fffffff;
        for (let i = 0; i < size; i++) {
          const id = decoded[first + i]!;
          while (next < id) next = ++j < shared ? sharedSorted[j]! : 0x7fffffff;
          if (id === next) continue;
          const count = blockCounts[i]!;
          // The most its count could score, in the block's shortest record.
          if (below(termScore(idf, count, shortest), threshold)) continue;
          const term = termScore(idf, count, norms[lengths[id]!]!);
          if (term < threshold) continue;
          best.offer(id, term);
          threshold = best.threshold;
        }
      }
    }
  }
  return total;
}

/** Whether the first `length` values ascend. */
function ascending(values: Int32Array, length: number): boolean {
  for (let i = 1; i < length; i++) if (values[i - 1]! > values[i]!) return false;
  return true;
}

/**
 * Adds a list's terms to the scores of the shared records it holds (`shared`, ascending; the
 * list's ids from `decoded[from]` on, its blocks from `starts`). Where they are many of the
 * list's (a word with an umlaut and its transliteration are indexed for the same records),
 * the list's ids and the shared ones are walked side by side and each block's counts decoded
 * once; where they are few, each is found by a search on from the one before and its count
 * read alone.
 */
function addSharedTerms(leaf: Leaf, starts: Int32Array, from: number, shared: Int32Array): void {
  if (shared.length * 4 >= leaf.postings.docs || !leaf.postings.countAt) addManySharedTerms(leaf, starts, from, shared);
  else addFewSharedTerms(leaf, starts, from, shared);
}

function addManySharedTerms({ postings, idf }: Leaf, starts: Int32Array, from: number, shared: Int32Array): void {
  const { blocks } = postings;
  let j = 0;
  let next = shared.length > 0 ? shared[0]! : 0x7fffffff;
  for (let b = 0; b < blocks && j < shared.length; b++) {
    if (postings.lastIds[b]! < next) continue;
    const start = from + starts[b]!;
    const end = from + starts[b + 1]!;
    const blockCounts = postings.counts(b);
    for (let i = start; i < end; i++) {
      const id = decoded[i]!;
      while (next < id) next = ++j < shared.length ? shared[j]! : 0x7fffffff;
      if (id !== next) continue;
      sharedScores[j] = sharedScores[j]! + termScore(idf, blockCounts[i - start]!, sharedNorms[j]!);
      next = ++j < shared.length ? shared[j]! : 0x7fffffff;
    }
  }
}

function addFewSharedTerms({ postings, idf }: Leaf, starts: Int32Array, from: number, shared: Int32Array): void {
  const { lastIds, blocks } = postings;
  const ids = decoded.subarray(from, from + postings.docs);
  let b = 0;
  let at = 0;
  for (let j = 0; j < shared.length; j++) {
    const id = shared[j]!;
    while (b < blocks && lastIds[b]! < id) b++;
    if (b === blocks) return;
    const start = starts[b]!;
    // The block's last id is at least `id`: the search stops inside it.
    at = seek(ids, Math.max(at, start), id);
    if (ids[at] !== id) continue;
    sharedScores[j] = sharedScores[j]! + termScore(idf, postings.countAt!(b, at - start), sharedNorms[j]!);
  }
}

function grown(array: Int32Array): Int32Array {
  const larger = new Int32Array(2 * array.length);
  larger.set(array);
  return larger;
}
