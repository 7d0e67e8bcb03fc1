import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import type { TokenPostings } from './block-postings';
import { ListsBuilder, type Instances } from './positions';
import { doubled } from '../typed-arrays';

/**
 * Pair lists, in the spirit of Lucene's CommonGrams: for two adjacent tokens that are both
 * common, a postings list of their own (in block-postings.ts's codec, behind its versioned
 * header, over whole records and per column as a token's), so a phrase of common words
 * reads one list instead of verifying the positions of every record that holds both words.
 * A pair's count in a record is what query/phrase.ts counts for the two-word phrase: the
 * column weight of each place where the second stands right after the first, in the same
 * column.
 *
 * Besides the whole-record list, a pair has lists only in `pairColumns`: a phrase searched
 * in another column (description=, subject=...) narrows its candidates by the whole-record
 * pair list and verifies positions, as a phrase of rarer words does.
 *
 * A token is common when at least `commonDocs(rows)` records hold it. The set is chosen
 * when the postings are built in full and stored with them; a later write keeps the pair
 * lists of that set exact without changing it (postings-update.ts), so the set is always
 * the one the lists were built for.
 */

/** The share of the records a token must be in to be common: verifying its phrases' positions costs in proportion. */
export const commonShare = 1 / 32;
/** Below this many records no token is common: a small store's phrases are cheap to verify. */
export const minCommonDocs = 16;

/** The number of records a token must be in to be common, in a store of `rows` records. */
export const commonDocs = (rows: number): number => Math.max(minCommonDocs, Math.ceil(rows * commonShare));

/**
 * The columns a pair has a list of its own in: those a parameter searches alone (title=,
 * author=, the organisations', fulltext=), where a phrase of common words from positions is
 * ten times slower or worse (an organisation's name is in most records), but subjects, whose
 * phrases from positions still take a fraction of a millisecond. The full text's lists also
 * give biblio=, every column but the full text, as the whole-record list less them
 * (query/pair-difference.ts). The lists of the description, subjects and biblio columns were
 * over a third of the pair lists' rows.
 */
export const pairColumns: readonly SearchColumn[] = ['title', 'authors', 'sponsor', 'research', 'contributing', 'fulltext'];

/** Whether a pair has a list in `column` (undefined: over whole records). */
export const pairListIn = (column: SearchColumn | undefined): boolean => column === undefined || pairColumns.includes(column);

/** By column's place in `searchColumns`: whether a pair's lists count its places there apart. */
const keptColumns = searchColumns.map((column) => pairColumns.includes(column));

/** A pair list's key: the two tokens and a space (tokens never hold one). */
export const pairKey = (first: string, second: string): string => `${first} ${second}`;

/** A pair's lists: over whole records, then in each of `pairColumns`. */
export const pairScopes = 1 + pairColumns.length;

/**
 * The stored row of a pair's list, its table's integer key: the two tokens' places among the
 * common tokens in order (`width` of them), then the list's scope (0 over whole records, then
 * `pairColumns`' order). The common tokens are fixed from one full build to the next, so a
 * pair's rows never move, and the table needs no second copy of a text key to find them.
 */
export const pairRow = (first: number, second: number, width: number, scope: number): number =>
  (first * width + second) * pairScopes + scope;

/** A list's scope in its pair's rows: 0 over whole records (`col` ''), else its place in `pairColumns` plus one. */
export const pairScope = (col: string): number => (col === '' ? 0 : 1 + pairColumns.indexOf(col as SearchColumn));

/** The `col` of a pair's list from its row. */
export const pairColumnOf = (row: number): string => (row % pairScopes === 0 ? '' : pairColumns[(row % pairScopes) - 1]!);

/** Offsets in a column stay below this, so a (column, offset) place packs into one number. */
const offsetLimit = 2 ** 26;
/** Columns' places stay below this (fts5-adapter.ts checks). */
const columnLimit = 16;

/** One common token's instances in a range of records, read record by record in id order. */
export interface WordInstances {
  /** Calls `visit` with each record of the range that holds the token and its instances there, in (column, offset) order. */
  each(visit: (doc: number, instances: Instances) => void): void;
}

/**
 * Every pair of adjacent common tokens in the records from `low` to below `high`, with its
 * lists there over whole records and per column: `emit(first, second, lists)` once per pair
 * that occurs, the two as indexes into `words`. Every common token's places in the range
 * are grouped by record (a counting sort), then laid out by place in each record, where a
 * place and the next one are adjacent tokens; the pairs met are grouped by pair (a counting
 * sort again) rather than each added to a list of its own as met, whose scattered writes cost
 * more than the rest together.
 */
export function eachPairIn(
  words: readonly WordInstances[],
  low: number,
  high: number,
  emit: (first: number, second: number, lists: Map<string, TokenPostings>) => void,
): void {
  const width = words.length;
  const starts = new Uint32Array(high - low + 1);
  for (const word of words) word.each((doc, instances) => (starts[doc - low + 1]! += instances.length));
  for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!;
  const fill = starts.slice(0, -1);
  // Each place's column and offset, and its word, by record (a counting sort).
  const places = new Int32Array(starts[starts.length - 1]!);
  const owners = new Int32Array(places.length);
  words.forEach((word, w) =>
    word.each((doc, instances) => {
      for (let i = 0; i < instances.length; i++) {
        const offset = instances.offsets[i]!;
        if (offset + 1 >= offsetLimit)
          throw new Error(`An offset of ${offset} in one column; pair lists hold offsets below ${offsetLimit - 1}.`);
        const at = fill[doc - low]!++;
        places[at] = instances.columns[i]! * offsetLimit + offset;
        owners[at] = w;
      }
    }),
  );
  // Pairs are numbered in the order first met. The places are read twice: to count each pair's meetings, then
  // to put each meeting (its record and column) in its pair's place, so the meetings are grouped by pair in
  // record order (a counting sort) in 5 bytes each, and each pair's lists are built from consecutive entries.
  const pairNumbers = pairNumbering(width);
  const codes: number[] = [];
  let counts = new Uint32Array(1024);
  eachAdjacent(starts, places, owners, (first, second) => {
    const code = first * width + second;
    let number = pairNumbers.get(code);
    if (number < 0) {
      pairNumbers.set(code, (number = codes.push(code) - 1));
      if (number === counts.length) counts = doubled(counts);
    }
    counts[number]!++;
  });
  const pairStarts = new Uint32Array(codes.length + 1);
  for (let p = 0; p < codes.length; p++) pairStarts[p + 1] = pairStarts[p]! + counts[p]!;
  const next = pairStarts.slice(0, -1);
  const docs = new Int32Array(pairStarts[codes.length]!);
  const columns = new Uint8Array(docs.length);
  eachAdjacent(starts, places, owners, (first, second, d, column) => {
    const at = next[pairNumbers.get(first * width + second)]!++;
    docs[at] = d + low;
    columns[at] = column;
  });
  const order = Int32Array.from(codes.keys()).sort((x, y) => codes[x]! - codes[y]!);
  for (const p of order) {
    let records = 0;
    for (let k = pairStarts[p]!; k < pairStarts[p + 1]!; k++) if (k === pairStarts[p] || docs[k] !== docs[k - 1]) records++;
    const lists = new ListsBuilder(keptColumns, records);
    for (let k = pairStarts[p]!; k < pairStarts[p + 1]!; k++) lists.add(docs[k]!, columns[k]!);
    emit(Math.floor(codes[p]! / width), codes[p]! % width, lists.build());
  }
}

/**
 * Calls `meet` with each two adjacent places (words `first` then `second`), record by record
 * (`d` from the range's first), each record's in (column, offset) order; `places` and
 * `owners` hold each record's places (column × offsetLimit + offset) and their words from
 * `starts[d]`. A record's places are laid out column after column, each slot the word there
 * plus one (0: no common word), so adjacent places are adjacent slots, read without sorting;
 * a record whose common words are few and far apart is sorted instead.
 */
function eachAdjacent(
  starts: Uint32Array,
  places: Int32Array,
  owners: Int32Array,
  meet: (first: number, second: number, d: number, column: number) => void,
): void {
  const highest = new Int32Array(columnLimit).fill(-1);
  const bases = new Int32Array(columnLimit);
  let wordAt = new Int32Array(1024);
  for (let d = 0; d + 1 < starts.length; d++) {
    const begin = starts[d]!;
    const end = starts[d + 1]!;
    if (end - begin < 2) continue;
    for (let i = begin; i < end; i++) {
      const column = Math.floor(places[i]! / offsetLimit);
      highest[column] = Math.max(highest[column]!, places[i]! - column * offsetLimit);
    }
    let size = 0;
    for (let column = 0; column < columnLimit; column++) {
      bases[column] = size;
      if (highest[column]! >= 0) size += highest[column]! + 2;
    }
    if (size > 8 * (end - begin) + 4096) {
      highest.fill(-1);
      const sorted = Array.from({ length: end - begin }, (_, k) => begin + k).sort((x, y) => places[x]! - places[y]!);
      for (let k = 0; k + 1 < sorted.length; k++) {
        const here = sorted[k]!;
        const after = sorted[k + 1]!;
        if (places[after] === places[here]! + 1) meet(owners[here]!, owners[after]!, d, Math.floor(places[here]! / offsetLimit));
      }
      continue;
    }
    if (wordAt.length < size) wordAt = new Int32Array(Math.max(size, 2 * wordAt.length));
    for (let i = begin; i < end; i++) {
      const column = Math.floor(places[i]! / offsetLimit);
      wordAt[bases[column]! + places[i]! - column * offsetLimit] = owners[i]! + 1;
    }
    for (let column = 0; column < columnLimit; column++) {
      const last = highest[column]!;
      if (last < 0) continue;
      highest[column] = -1;
      const base = bases[column]!;
      for (let offset = 0; offset < last; offset++) {
        const first = wordAt[base + offset]!;
        const second = wordAt[base + offset + 1]!;
        if (first !== 0 && second !== 0) meet(first - 1, second - 1, d, column);
      }
    }
    wordAt.fill(0, 0, size);
  }
}

/** Pairs' numbers by code (first × width + second): a typed array while it is small, as every pair met is looked up; -1 for none yet. */
function pairNumbering(width: number): { get(code: number): number; set(code: number, number: number): void } {
  if (width * width <= 1 << 24) {
    const numbers = new Int32Array(width * width).fill(-1);
    return { get: (code) => numbers[code]!, set: (code, number) => (numbers[code] = number) };
  }
  const numbers = new Map<number, number>();
  return { get: (code) => numbers.get(code) ?? -1, set: (code, number) => numbers.set(code, number) };
}
