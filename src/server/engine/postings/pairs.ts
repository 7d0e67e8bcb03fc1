import type { TokenPostings } from './block-postings';
import { ListsBuilder, type Instances } from './positions';

/**
 * Pair lists, in the spirit of Lucene's CommonGrams: for two adjacent tokens that are both
 * common, a postings list of their own (in block-postings.ts's codec, behind its versioned
 * header, over whole records and per column as a token's), so a phrase of common words
 * reads one list instead of verifying the positions of every record that holds both words.
 * A pair's count in a record is what query/phrase.ts counts for the two-word phrase: the
 * column weight of each place where the second stands right after the first, in the same
 * column.
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

/** A pair list's key: the two tokens and a space (tokens never hold one). */
export const pairKey = (first: string, second: string): string => `${first} ${second}`;

/** Offsets in a column stay below this, so a (column, offset) place packs into one number. */
const offsetLimit = 2 ** 26;

/** One common token's instances in a range of records, read record by record in id order. */
export interface WordInstances {
  /** Calls `visit` with each record of the range that holds the token and its instances there, in (column, offset) order. */
  each(visit: (doc: number, instances: Instances) => void): void;
}

/**
 * Every pair of adjacent common tokens in the records from `low` to below `high`, with its
 * lists there over whole records and per column: `emit(first, second, lists)` once per pair
 * that occurs, the two as indexes into `words`. Every common token's places in the range
 * are sorted by record (a counting sort), then by place in each record, where a place and
 * the next one are adjacent tokens.
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
  // A place and its word in one number: place × width + word.
  const places = new Float64Array(starts[starts.length - 1]!);
  words.forEach((word, w) =>
    word.each((doc, instances) => {
      for (let i = 0; i < instances.length; i++) {
        const offset = instances.offsets[i]!;
        if (offset + 1 >= offsetLimit)
          throw new Error(`An offset of ${offset} in one column; pair lists hold offsets below ${offsetLimit - 1}.`);
        places[fill[doc - low]!++] = (instances.columns[i]! * offsetLimit + offset) * width + w;
      }
    }),
  );
  // A pair's lists by its code, first × width + second: an array, not a map, as every place is looked up.
  const found = new Array<ListsBuilder | undefined>(width * width);
  for (let d = 0; d + 1 < starts.length; d++) {
    const end = starts[d + 1]!;
    if (end - starts[d]! < 2) continue;
    places.subarray(starts[d], end).sort();
    for (let i = starts[d]!; i < end; i++) {
      const word = places[i]! % width;
      const place = (places[i]! - word) / width;
      const next = (place + 1) * width;
      let j = i + 1;
      while (j < end && places[j]! < next) j++;
      for (; j < end && places[j]! < next + width; j++) {
        const code = (word * width + (places[j]! - next)) | 0;
        const lists = (found[code] ??= new ListsBuilder());
        lists.add(d + low, Math.floor(place / offsetLimit));
      }
    }
  }
  found.forEach((lists, code) => {
    if (lists) emit(Math.floor(code / width), code % width, lists.build());
  });
}
