import { searchColumns, type SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import type { IdSet } from './id-set';
import { addPostings, decodePostings, documentBounds, noInstances, readInstances, weights, type TokenPostings } from './postings';
import { tokenBlobs, type PostingsReader, type StoredPostings } from './postings-reader';
import type { Criteria } from './types';

/**
 * Searches that postings answer (postings.ts): words, prefixes and phrases, all required,
 * over whole records or the columns of a parameter (title=, author=) — what most
 * searches are. Other shapes (OR, NOT, a phrase ending in a prefix) go through text-search.ts.
 *
 * Scores are FTS5's bm25 to the bit: for phrase i with weighted count f_i in a record
 * of D tokens, score = Σ idf_i × f_i(k1 + 1) / (f_i + k1(1 − b + b·D/avgdl)), summed in
 * the query's phrase order with the same operations as fts5_aux.c (k1 = 1.2, b = 0.75).
 */

/**
 * One phrase of the query: the stored postings of each token and column it covers
 * (several for a prefix or a parameter's columns), or, for a phrase of several words,
 * the matches computed from positions.
 */
export type Phrase =
  | {
      readonly lists: readonly StoredPostings[];
      /** Documents in all its lists together: the size of the phrase's match set, or more. */
      readonly size: number;
    }
  | { readonly matches: TokenPostings; readonly size: number };

type Word = Extract<QueryNode, { type: 'term' | 'phrase' }>;

/** The words of a query that is a plain AND of words, in the order FTS5 numbers its phrases. */
function andedWords(node: QueryNode, columns: readonly SearchColumn[], words: { word: Word; columns: readonly SearchColumn[] }[]): boolean {
  switch (node.type) {
    case 'term':
    case 'phrase':
      words.push({ word: node, columns });
      return true;
    case 'and':
      return node.children.every((child) => andedWords(child, columns, words));
    default:
      return false;
  }
}

/** One token of a phrase: its documents, where each one's positions start, and the bytes. */
interface TokenPositions {
  readonly ids: Int32Array;
  readonly bounds: Uint32Array;
  readonly data: Uint8Array;
}

/** A token's documents and positions, ready to be walked. */
function tokenPositions(reader: PostingsReader, token: string): TokenPositions | undefined {
  const blobs = tokenBlobs(reader, token);
  if (!blobs) return undefined;
  const { ids } = decodePostings(blobs.postings);
  return { ids, bounds: documentBounds(blobs.positions, ids.length), data: blobs.positions };
}

/** The first index at or after `from` whose id is at least `id` (ids ascend). */
function seek(ids: Int32Array, from: number, id: number): number {
  if (from >= ids.length || ids[from]! >= id) return from;
  // Galloping: lists walked together mostly advance by a few entries at a time.
  let step = 1;
  while (from + step < ids.length && ids[from + step]! < id) step *= 2;
  let low = from + (step >> 1) + 1;
  let high = Math.min(from + step + 1, ids.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The records where `tokens` stand next to each other in this order, in one of `columns`,
 * with the phrase's column-weighted count in each — what FTS5 computes for a quoted
 * phrase. The rarest token's documents drive; the others are found by binary search and
 * their positions read only for documents that hold every token.
 */
export function phraseMatches(reader: PostingsReader, tokens: readonly string[], columns: readonly SearchColumn[]): TokenPostings {
  const nothing = { ids: new Int32Array(0), counts: new Uint32Array(0) };
  const allowed = searchColumns.map((column) => columns.includes(column));
  const walks: TokenPositions[] = [];
  for (const token of tokens) {
    const walk = tokenPositions(reader, token);
    if (!walk) return nothing;
    walks.push(walk);
  }
  const k = walks.length;
  const found = walks.map(noInstances);
  const driver = walks.reduce((best, walk) => (walk.ids.length < best.ids.length ? walk : best));
  const ids: number[] = [];
  const counts: number[] = [];
  const cursors = new Int32Array(k);
  const at = new Int32Array(k);
  documents: for (let d = 0; d < driver.ids.length; d++) {
    const id = driver.ids[d]!;
    for (let j = 0; j < k; j++) {
      const walk = walks[j]!;
      at[j] = walk === driver ? d : seek(walk.ids, at[j]!, id);
      if (walk.ids[at[j]!] !== id) continue documents;
    }
    for (let j = 0; j < k; j++) readInstances(walks[j]!.data, walks[j]!.bounds[at[j]!]!, found[j]!);
    // Each instance of the first token in an allowed column starts a match when token j
    // stands j places after it in the same column.
    cursors.fill(0);
    let count = 0;
    const first = found[0]!;
    for (let i = 0; i < first.length; i++) {
      const column = first.columns[i]!;
      if (!allowed[column]) continue;
      const offset = first.offsets[i]!;
      let all = true;
      for (let j = 1; j < k && all; j++) {
        const other = found[j]!;
        let c = cursors[j]!;
        while (c < other.length && (other.columns[c]! < column || (other.columns[c] === column && other.offsets[c]! < offset + j))) c++;
        cursors[j] = c;
        all = c < other.length && other.columns[c] === column && other.offsets[c] === offset + j;
      }
      if (all) count += weights[column] ?? 1;
    }
    if (count > 0) {
      ids.push(id);
      counts.push(count);
    }
  }
  return { ids: Int32Array.from(ids), counts: Uint32Array.from(counts) };
}

/**
 * The phrases of `criteria` read from postings, or undefined when the search has another
 * shape (then FTS5 answers it). A word FTS5 splits into several tokens (heat-transfer) is
 * a phrase to FTS5, and so it is here.
 */
export function termPhrases(criteria: Criteria, reader: PostingsReader): Phrase[] | undefined {
  const words: { word: Word; columns: readonly SearchColumn[] }[] = [];
  for (const { columns, query } of criteria.text) {
    if (!andedWords(query, columns, words)) return undefined;
  }
  if (words.length === 0) return undefined;
  const phrases: Phrase[] = [];
  for (const { word, columns } of words) {
    // (FTS5 is given NUL as a space: predicate.ts.)
    const tokens = reader.tokenize(word.text.replace(/\u0000/g, ' '));
    const prefix = word.type === 'term' && word.prefix;
    if (tokens.length === 0 || (tokens.length > 1 && prefix)) return undefined;
    if (tokens.length > 1) {
      const matches = phraseMatches(reader, tokens, columns);
      phrases.push({ matches, size: matches.ids.length });
      continue;
    }
    const expanded = prefix ? reader.expand(tokens[0]!) : tokens;
    // A parameter's columns: only instances there count, in the count and in the idf.
    const scopes = columns.length === searchColumns.length ? [undefined] : columns;
    const lists = expanded
      .flatMap((token) => scopes.map((column) => reader.read(token, column)))
      .filter((list): list is StoredPostings => list !== undefined);
    phrases.push({ lists, size: lists.reduce((sum, list) => sum + list.docs, 0) });
  }
  return phrases;
}

/** Records matching every phrase (and the filter), ascending, with their bm25 scores. */
export interface Matches {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
}

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

/** A phrase's counts by record id, and how many records it matches (its idf's `hits`). */
function denseCounts(phrase: Phrase, capacity: number): { countsById: Uint32Array; hits: number } {
  const countsById = new Uint32Array(capacity);
  if ('matches' in phrase) {
    const { ids, counts } = phrase.matches;
    for (let i = 0; i < ids.length; i++) countsById[ids[i]!] = counts[i]!;
    return { countsById, hits: ids.length };
  }
  let hits = 0;
  for (const list of phrase.lists) hits += addPostings(list.data, countsById);
  return { countsById, hits };
}

/** A phrase's matches in id order: decoded as they are for one list, else merged by id. */
function sparsePostings(phrase: Phrase, capacity: number): TokenPostings {
  if ('matches' in phrase) return phrase.matches;
  if (phrase.lists.length === 1) return decodePostings(phrase.lists[0]!.data);
  const { countsById, hits } = denseCounts(phrase, capacity);
  return denseToList(countsById, hits);
}

/** The documents of a dense count array (index = id) with a count, as a postings list. */
export function denseToList(countsById: Uint32Array, hits: number): TokenPostings {
  const ids = new Int32Array(hits);
  const counts = new Uint32Array(hits);
  for (let id = 0, n = 0; n < hits; id++) {
    if (countsById[id] !== 0) {
      ids[n] = id;
      counts[n++] = countsById[id]!;
    }
  }
  return { ids, counts };
}

export function scoreMatches(reader: PostingsReader, phrases: readonly Phrase[], filter: IdSet | undefined): Matches {
  const { lengths } = reader;
  const capacity = lengths.length;
  const norms = lengthNorms(reader);
  const n = phrases.length;
  // The smallest phrase drives, read as a list; the others are looked up by id.
  let d = 0;
  for (let p = 1; p < n; p++) if (phrases[p]!.size < phrases[d]!.size) d = p;
  const { ids: driverIds, counts: driverCounts } = sparsePostings(phrases[d]!, capacity);
  const idf = new Float64Array(n);
  const countsById: Uint32Array[] = [];
  for (let p = 0; p < n; p++) {
    if (p === d) {
      countsById.push(new Uint32Array(0));
      idf[p] = reader.idf(driverIds.length);
    } else {
      const dense = denseCounts(phrases[p]!, capacity);
      countsById.push(dense.countsById);
      idf[p] = reader.idf(dense.hits);
    }
  }
  const ids = new Int32Array(driverIds.length);
  const scores = new Float64Array(driverIds.length);
  let found = 0;
  if (n === 1) {
    // One word: the same arithmetic without the per-phrase loop (most searches).
    const weight = idf[0]!;
    for (let j = 0; j < driverIds.length; j++) {
      const id = driverIds[j]!;
      if (filter && !filter.has(id)) continue;
      const f = driverCounts[j]!;
      ids[found] = id;
      scores[found++] = 0 + weight * ((f * (k1 + 1.0)) / (f + norms[lengths[id]!]!));
    }
    return { ids: ids.subarray(0, found), scores: scores.subarray(0, found) };
  }
  next: for (let j = 0; j < driverIds.length; j++) {
    const id = driverIds[j]!;
    if (filter && !filter.has(id)) continue;
    const norm = norms[lengths[id]!]!;
    let score = 0;
    for (let p = 0; p < n; p++) {
      const f = p === d ? driverCounts[j]! : countsById[p]![id]!;
      if (f === 0) continue next;
      score += idf[p]! * ((f * (k1 + 1.0)) / (f + norm));
    }
    ids[found] = id;
    scores[found++] = score;
  }
  return { ids: ids.subarray(0, found), scores: scores.subarray(0, found) };
}

/**
 * The first `need` matches in relevance order: best first (or worst first when
 * `descending` is false), ties by `ties[id]` (or by id) ascending — FTS5's
 * `ORDER BY bm25(…), tie-break`.
 */
export function topOrder(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  return need > deepOrder ? orderByScore(matches, descending, need, ties) : heapOrder(matches, descending, need, ties);
}

/** Beyond this many rows, sorting every match beats keeping a heap of the best. */
const deepOrder = 2000;

/**
 * The first `need` of a set of matches in relevance order, their scores indexed by record
 * id (text-search.ts's): as topOrder, without a list of the matches or their scores.
 */
export function topOrderOfSet(matches: IdSet, scoresById: Float64Array, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  if (need > deepOrder) {
    const ids = matches.toIds();
    const scores = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) scores[i] = scoresById[ids[i]!]!;
    return orderByScore({ ids, scores }, descending, need, ties);
  }
  const best = new BestOf(need, ties);
  const sign = descending ? 1 : -1;
  matches.forEach((id) => best.offer(id, sign * scoresById[id]!));
  return best.order();
}

/**
 * A bounded heap keeps the best `need` seen so far: for a first page of a million
 * matches, about one comparison per match.
 */
function heapOrder(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  const { ids, scores } = matches;
  const best = new BestOf(Math.min(need, ids.length), ties);
  const sign = descending ? 1 : -1;
  for (let i = 0; i < ids.length; i++) best.offer(ids[i]!, sign * scores[i]!);
  return best.order();
}

/** The `size` best (id, score) pairs offered: higher scores first, ties by `ties[id]` (or the id) ascending. */
class BestOf {
  private readonly ids: Int32Array;
  private readonly scores: Float64Array;
  private length = 0;

  constructor(
    private readonly size: number,
    private readonly ties: Int32Array | undefined,
  ) {
    this.ids = new Int32Array(size);
    this.scores = new Float64Array(size);
  }

  /** The heap's root is the last of the best so far. */
  offer(id: number, score: number): void {
    const { ids, scores } = this;
    if (this.length < this.size) {
      let at = this.length++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.after(score, id, scores[parent]!, ids[parent]!)) break;
        ids[at] = ids[parent]!;
        scores[at] = scores[parent]!;
        at = parent;
      }
      ids[at] = id;
      scores[at] = score;
    } else if (this.size > 0 && score >= scores[0]! && this.after(scores[0]!, ids[0]!, score, id)) {
      ids[0] = id;
      scores[0] = score;
      this.siftDown();
    }
  }

  /** The pairs offered, best first; empties the heap. */
  order(): Int32Array {
    const { ids, scores } = this;
    const order = new Int32Array(this.length);
    while (this.length > 0) {
      order[this.length - 1] = ids[0]!;
      const last = --this.length;
      ids[0] = ids[last]!;
      scores[0] = scores[last]!;
      this.siftDown();
    }
    return order;
  }

  /** (score, id) comes after (otherScore, otherId) in the order. */
  private after(score: number, id: number, otherScore: number, otherId: number): boolean {
    if (score !== otherScore) return score < otherScore;
    const { ties } = this;
    return ties ? ties[id]! > ties[otherId]! : id > otherId;
  }

  private siftDown(): void {
    const { ids, scores, length } = this;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= length) return;
      const right = left + 1;
      const child = right < length && this.after(scores[right]!, ids[right]!, scores[left]!, ids[left]!) ? right : left;
      if (!this.after(scores[child]!, ids[child]!, scores[at]!, ids[at]!)) return;
      const childId = ids[child]!;
      const childScore = scores[child]!;
      ids[child] = ids[at]!;
      scores[child] = scores[at]!;
      ids[at] = childId;
      scores[at] = childScore;
      at = child;
    }
  }
}

/**
 * The rank of each score among the distinct scores, ascending. Matches share few scores
 * (a word in 30% of a million records: 457), so the distinct ones are found with a small
 * hash table on the scores' bits — a tenth of the time of sorting all of them.
 */
function scoreRanks(scores: Float64Array): { ranks: Int32Array; kinds: number } {
  const count = scores.length;
  const bits = new Uint32Array(scores.buffer, scores.byteOffset, count * 2);
  let mask = 1023;
  let slots = new Int32Array(mask + 1).fill(-1);
  let kinds = 0;
  // Slot of a score's bits: a match, or an empty slot where it belongs.
  const find = (table: Int32Array, at: number) => {
    const low = bits[2 * at]!;
    const high = bits[2 * at + 1]!;
    let slot = (Math.imul(high, 0x9e3779b1) ^ Math.imul(low, 0x85ebca6b)) & mask;
    for (;;) {
      const other = table[slot]!;
      if (other < 0 || (bits[2 * other] === low && bits[2 * other + 1] === high)) return slot;
      slot = (slot + 1) & mask;
    }
  };
  for (let i = 0; i < count; i++) {
    const slot = find(slots, i);
    if (slots[slot]! >= 0) continue;
    slots[slot] = i;
    if (++kinds * 2 > mask) {
      const old = slots;
      mask = mask * 2 + 1;
      slots = new Int32Array(mask + 1).fill(-1);
      for (const first of old) if (first >= 0) slots[find(slots, first)] = first;
    }
  }
  // Each distinct score's rank, kept where its first match sits in the table.
  const firsts = Int32Array.from(slots.filter((first) => first >= 0)).sort((a, b) => scores[a]! - scores[b]!);
  const rankAt = new Int32Array(mask + 1);
  firsts.forEach((first, rank) => (rankAt[find(slots, first)] = rank));
  const ranks = new Int32Array(count);
  for (let i = 0; i < count; i++) ranks[i] = rankAt[find(slots, i)]!;
  return { ranks, kinds };
}

/**
 * Every match in order, for deep pages: each match goes to its score's bucket in id
 * order, and only ties broken by another key than the id are sorted within their bucket.
 * Page 5,000 of a word in 30% of a million records took 80–120 ms through the heap.
 */
function orderByScore(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  const { ids, scores } = matches;
  const count = ids.length;
  const { ranks, kinds } = scoreRanks(scores);
  const bucket = descending ? ranks.map((rank) => kinds - 1 - rank) : ranks;
  const starts = new Int32Array(kinds + 1);
  for (let i = 0; i < count; i++) starts[bucket[i]! + 1]!++;
  for (let b = 0; b < kinds; b++) starts[b + 1]! += starts[b]!;
  const next = starts.slice();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[next[bucket[i]!]!++] = ids[i]!;
  if (ties) {
    for (let b = 0; b < kinds && starts[b]! < need; b++) {
      if (starts[b + 1]! - starts[b]! > 1) order.subarray(starts[b], starts[b + 1]).sort((x, y) => ties[x]! - ties[y]!);
    }
  }
  return order.slice(0, Math.min(need, count));
}
