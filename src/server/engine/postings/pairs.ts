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

/** First words' places held at once (8 bytes each: at most 256 MB) while every word is walked against them. */
const placesAtOnce = 2 ** 25;

/** One common token's instances, read record by record in id order. */
export interface WordInstances {
  /** At least its number of instances: batches of first words are sized by it. */
  readonly size: number;
  /** Calls `visit` with each record that holds the token and its instances there, in (column, offset) order. */
  each(visit: (doc: number, instances: Instances) => void): void;
}

/**
 * Every pair of adjacent common tokens with its lists over whole records and per column:
 * `emit(first, second, lists)` once per pair that occurs, the two as indexes into `words`,
 * the records below `records`. The first words are taken in batches that fit in memory:
 * the places right after their instances are sorted by record, then every word is walked
 * once, record by record, its instances merged with the batch's places there. A pair's
 * whole list comes from one walk, so nothing is joined afterwards.
 */
export function eachPair(
  words: readonly WordInstances[],
  records: number,
  emit: (first: number, second: number, lists: Map<string, TokenPostings>) => void,
): void {
  const width = words.length;
  const starts = new Uint32Array(records + 1);
  for (let from = 0; from < width;) {
    let to = from;
    let size = 0;
    do size += words[to++]!.size;
    while (to < width && size + words[to]!.size <= placesAtOnce);
    // The batch's places by record (a counting sort), each record's in order: a place and its word in one number.
    starts.fill(0);
    for (let w = from; w < to; w++) words[w]!.each((doc, instances) => (starts[doc + 1]! += instances.length));
    for (let d = 0; d < records; d++) starts[d + 1]! += starts[d]!;
    const fill = starts.slice(0, records);
    const places = new Float64Array(starts[records]!);
    for (let w = from; w < to; w++) {
      words[w]!.each((doc, instances) => {
        for (let i = 0; i < instances.length; i++) {
          const next = instances.offsets[i]! + 1;
          if (next >= offsetLimit)
            throw new Error(`An offset of ${next - 1} in one column; pair lists hold offsets below ${offsetLimit - 1}.`);
          places[fill[doc]!++] = (instances.columns[i]! * offsetLimit + next) * width + w;
        }
      });
    }
    for (let d = 0; d < records; d++) if (starts[d + 1]! - starts[d]! > 1) places.subarray(starts[d], starts[d + 1]).sort();
    const found = new Array<ListsBuilder | undefined>(width);
    for (let second = 0; second < width; second++) {
      const firsts: number[] = [];
      words[second]!.each((doc, instances) => {
        let p = starts[doc]!;
        const end = starts[doc + 1]!;
        for (let i = 0; i < instances.length && p < end; i++) {
          // The batch's numbers for this place are place × width + word.
          const low = (instances.columns[i]! * offsetLimit + instances.offsets[i]!) * width;
          // The record's places are many, its instances of one word few: a binary search, not a walk.
          for (let high = end; p < high;) {
            const middle = (p + high) >>> 1;
            if (places[middle]! < low) p = middle + 1;
            else high = middle;
          }
          for (let q = p; q < end && places[q]! < low + width; q++) {
            const first = places[q]! - low;
            let lists = found[first];
            if (!lists) {
              lists = found[first] = new ListsBuilder();
              firsts.push(first);
            }
            lists.add(doc, instances.columns[i]!);
          }
        }
      });
      for (const first of firsts) {
        emit(first, second, found[first]!.build());
        found[first] = undefined;
      }
    }
    from = to;
  }
}
