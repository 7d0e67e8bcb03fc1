import { IdSet } from '../id-set';
import type { Postings, TokenPostings } from './block-postings';

/**
 * Lists' counts summed by record (a prefix's expansions, a parameter's columns) in an array
 * indexed by record id: a reader's, lent to one search at a time and left all zeros again
 * when the sums are read out, or cleared if the search fails on the way.
 */
export class SummedCounts {
  /** How many (record, count) pairs were added. */
  postings = 0;
  /** How many records hold a count. */
  private held = 0;
  /** The records of the lists added while they held at most `markedUpTo` pairs (records()). */
  private readonly marked: IdSet | undefined;

  /** Records are marked for records() while the lists added hold at most `markedUpTo` pairs (none by default). */
  constructor(
    private readonly countsById: Uint32Array,
    private readonly markedUpTo = 0,
  ) {
    this.marked = markedUpTo > 0 ? new IdSet(countsById.length) : undefined;
  }

  add(list: Postings): void {
    this.postings += list.docs;
    const marked = this.postings <= this.markedUpTo ? this.marked : undefined;
    let held = this.held;
    for (let b = 0; b < list.blocks; b++) {
      const ids = list.ids(b);
      held += addCounts(ids, list.counts(b), this.countsById);
      marked?.addAll(ids);
    }
    this.held = held;
  }

  /** Takes a list's counts off again, where a list that holds its records with at least those counts was added. */
  take(list: Postings): void {
    const { countsById } = this;
    for (let b = 0; b < list.blocks; b++) {
      const ids = list.ids(b);
      const counts = list.counts(b);
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        countsById[id]! -= counts[i]!;
        if (countsById[id] === 0) this.held--;
      }
    }
  }

  /** Zeroes the array, for a search that stops before reading the sums out. */
  clear(): void {
    this.countsById.fill(0);
  }

  /** The records added and their sums, found through the marks: for a few records among many ids. */
  records(): TokenPostings {
    if (!this.marked || this.postings > this.markedUpTo) throw new Error('The records of unmarked lists are read out whole (readOut).');
    const ids = this.marked.toIds(this.held);
    const counts = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      counts[i] = this.countsById[ids[i]!]!;
      this.countsById[ids[i]!] = 0;
    }
    return { ids, counts };
  }

  /** The records holding a count and their sums, every id up to the last read: for records many among the ids. */
  readOut(): TokenPostings {
    const { countsById, held } = this;
    // Every record up to the last that holds one is written, and the place moves on past those
    // that do: a branch on each record mispredicted wherever half of them hold a token, and
    // took about twice as long. The last write may fall one past the list.
    const ids = new Int32Array(held + 1);
    const counts = new Uint32Array(held + 1);
    let id = 0;
    for (let n = 0; n < held; id++) {
      const count = countsById[id]!;
      ids[n] = id;
      counts[n] = count;
      // 1 where the count is not 0 (counts stay far below 2^31).
      n += -count >>> 31;
    }
    countsById.fill(0, 0, id);
    return { ids: ids.subarray(0, held), counts: counts.subarray(0, held) };
  }
}

/** Adds a block's counts into `countsById`; returns how many of its records had none. */
function addCounts(ids: Int32Array, counts: Uint32Array, countsById: Uint32Array): number {
  let added = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const before = countsById[id]!;
    // 1 where the record had no count (no branch: whether it had one is as likely as not).
    added += (before - 1) >>> 31;
    countsById[id] = before + counts[i]!;
  }
  return added;
}
