import { IdSet } from '../id-set';
import type { Postings } from './block-postings';

/** The records of a postings list as a bitset: every block's ids decoded. */
export function recordsOf(postings: Postings, capacity: number): IdSet {
  const set = new IdSet(capacity);
  if (isDense(postings.docs, capacity)) for (let b = 0; b < postings.blocks; b++) set.addAscending(postings.ids(b));
  else for (let b = 0; b < postings.blocks; b++) set.addAll(postings.ids(b));
  return set;
}

/** Whether a list of `docs` documents among `records` is dense: in an eighth of the records or more. */
export const isDense = (docs: number, records: number) => docs * 8 >= records;

/** The fewest documents a dense list has among `records` (isDense). */
export const denseFrom = (records: number) => Math.max(1, records / 8);

/**
 * The record sets of a reader's densest lists, as Lucene keeps dense filters as bitsets:
 * a word in most records ("data", "the") is in many different searches, and decoding its
 * million ids costs more than everything else an AND of it with another word does. A list
 * counts as dense from `minDocs` documents; the last `kept` sets used are kept (at most
 * `kept` × capacity / 8 bytes). A reader reads one snapshot of its file, so a set never
 * goes stale; sets are only combined into new ones, never changed.
 */
export class DenseSets {
  private readonly sets = new Map<string, IdSet>();

  constructor(
    private readonly capacity: number,
    private readonly minDocs: number,
    private readonly kept: number,
  ) {}

  /** The list's records, kept under `key` if it is dense. */
  recordsOf(key: string, postings: Postings): IdSet {
    if (postings.docs < this.minDocs) return recordsOf(postings, this.capacity);
    let set = this.sets.get(key);
    if (set) this.sets.delete(key);
    else {
      set = recordsOf(postings, this.capacity);
      if (this.sets.size >= this.kept) this.sets.delete(this.sets.keys().next().value!);
    }
    this.sets.set(key, set);
    return set;
  }
}
