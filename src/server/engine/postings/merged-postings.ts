import { FrontiersBuilder, type BlockFrontiers } from './block-frontier';
import type { Postings, TokenPostings } from './block-postings';
import { seek } from './seek';
import { SummedCounts } from './summed-counts';
import type { RecordLengths } from './record-lengths';

/** The others' pairs, as a share of the longest list's, up to which lists are read through the longest. */
const othersShare = 1 / 4;

/**
 * Stored lists searched as one (a prefix's expansions, a parameter's columns), their counts
 * summed by record, read through the longest of them: its blocks are the merged list's
 * blocks, and the others' records, decoded whole, are merged into a block only when it is
 * read. Merging every list up front decoded every id and count of the longest list, read out
 * a count for every record id, and found a best score per record for the merged list's block
 * bounds; a first page of `meas*` (`measur` in nine records of ten, `mea` in one of a
 * hundred) needs a few of its blocks.
 *
 * A block's bounds stay exact enough to skip it: its pairs are the longest list's own
 * frontier, which bounds its records that no other list holds, and one pair per record of
 * the others, whose length is the record's and whose count is its count in the others plus
 * the most the longest list's frontier allows a record that long (a whole frontier has a
 * pair with a count as large and a length as short as each of its records: the first of
 * its pairs, by falling counts, that is no longer). bm25 grows with the count, so each
 * record scores at most its pair.
 */
export class MergedPostings implements Postings {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;
  readonly frontiers: BlockFrontiers;
  /** The other lists' records, ascending, their counts summed. */
  private readonly otherIds: Int32Array;
  private readonly otherCounts: Uint32Array;
  /** Block b's records of the other lists are at otherStarts[b] up to otherStarts[b + 1]. */
  private readonly otherStarts: Int32Array;
  private readonly sizes: Int32Array;
  private readonly mergedIds: Int32Array;
  private readonly mergedCounts: Uint32Array;
  private idsOf = -1;
  private countsOf = -1;

  /**
   * The lists as one, each read when the merge comes to it, so that at most two are held at
   * once (a short prefix expands to thousands of tokens); undefined if none is there. Where
   * the others hold more than a quarter as many records as the longest, reading it through
   * its blocks saves less than merging the others into them costs, and every list is merged
   * up front (`computed` makes the merged list's blocks).
   */
  static of(
    lists: Iterable<() => Postings | undefined>,
    lengths: RecordLengths,
    countsById: Uint32Array,
    computed: (list: TokenPostings) => Postings,
  ): Postings | undefined {
    let others: SummedCounts | undefined;
    let longest: Postings | undefined;
    try {
      for (const read of lists) {
        const list = read();
        if (!list) continue;
        if (!longest) longest = list;
        else {
          // Their records are read out through marks only if they could be read through the longest.
          others ??= new SummedCounts(countsById, lengths.length * othersShare);
          if (list.docs <= longest.docs) others.add(list);
          else {
            others.add(longest);
            longest = list;
          }
        }
      }
      if (!others) return longest;
      if (others.postings <= longest!.docs * othersShare) return new MergedPostings(longest!, others.records(), lengths);
      others.add(longest!);
      return computed(others.readOut());
    } catch (error) {
      others?.clear();
      throw error;
    }
  }

  private constructor(
    private readonly longest: Postings,
    { ids: otherIds, counts: otherCounts }: TokenPostings,
    lengths: RecordLengths,
  ) {
    // Stored lists' frontiers are whole (block-postings.ts); the bounds below rest on it.
    if (!longest.frontiers.whole) throw new Error('The longest of merged lists needs its whole frontiers.');
    this.otherIds = otherIds;
    this.otherCounts = otherCounts;
    const n = this.otherIds.length;
    const lastOther = n > 0 ? this.otherIds[n - 1]! : -1;
    const pastLongest = longest.blocks === 0 || lastOther > longest.lastIds[longest.blocks - 1]!;
    // Records of the others after the longest list's last: a block of their own.
    this.blocks = longest.blocks + (n > 0 && pastLongest ? 1 : 0);
    this.lastIds = new Int32Array(this.blocks);
    this.lastIds.set(longest.lastIds);
    if (this.blocks > longest.blocks) this.lastIds[longest.blocks] = lastOther;

    this.otherStarts = new Int32Array(this.blocks + 1);
    this.sizes = new Int32Array(this.blocks);
    const frontiers = new FrontiersBuilder(this.blocks);
    const { starts, counts: pairCounts, lengths: pairLengths } = longest.frontiers;
    let docs = longest.docs;
    let widest = 0;
    for (let b = 0, i = 0; b < this.blocks; b++) {
      const inLongest = b < longest.blocks;
      let block: Int32Array | undefined;
      let at = 0;
      let added = 0;
      if (inLongest) for (let k = starts[b]!; k < starts[b + 1]!; k++) frontiers.push(pairCounts[k]!, pairLengths[k]!);
      for (; i < n && this.otherIds[i]! <= this.lastIds[b]!; i++) {
        const id = this.otherIds[i]!;
        const length = lengths[id]!;
        let most = 0;
        let held = false;
        if (inLongest) {
          block ??= longest.ids(b);
          at = seek(block, at, id);
          if (block[at] === id) {
            held = true;
            let k = starts[b]!;
            while (k < starts[b + 1]! && pairLengths[k]! > length) k++;
            // (None no longer only if the frontier were not whole: then the block's largest count.)
            most = pairCounts[k < starts[b + 1]! ? k : starts[b]!]!;
          }
        }
        if (!held) added++;
        frontiers.push(most + this.otherCounts[i]!, length);
      }
      frontiers.endBlock();
      this.otherStarts[b + 1] = i;
      this.sizes[b] = (inLongest ? longest.size(b) : 0) + added;
      docs += added;
      widest = Math.max(widest, this.sizes[b]!);
    }
    this.docs = docs;
    this.frontiers = frontiers.build();
    this.mergedIds = new Int32Array(widest);
    this.mergedCounts = new Uint32Array(widest);
  }

  size(b: number): number {
    return this.sizes[b]!;
  }

  ids(b: number): Int32Array {
    if (this.idsOf !== b) this.merge(b, false);
    return this.mergedIds.subarray(0, this.sizes[b]);
  }

  counts(b: number): Uint32Array {
    if (this.countsOf !== b) this.merge(b, true);
    return this.mergedCounts.subarray(0, this.sizes[b]);
  }

  /** Block b's records (and counts, if asked): the longest list's block with the others' records in it. */
  private merge(b: number, withCounts: boolean): void {
    const { otherIds, otherCounts, mergedIds: ids, mergedCounts: counts } = this;
    const own = b < this.longest.blocks ? this.longest.ids(b) : undefined;
    const ownCounts = own && withCounts ? this.longest.counts(b) : undefined;
    const m = own?.length ?? 0;
    const end = this.otherStarts[b + 1]!;
    let i = 0;
    let j = this.otherStarts[b]!;
    let n = 0;
    while (i < m || j < end) {
      const id = i < m ? own![i]! : 0x7fffffff;
      const other = j < end ? otherIds[j]! : 0x7fffffff;
      if (id < other) {
        ids[n] = id;
        if (ownCounts) counts[n] = ownCounts[i]!;
        i++;
      } else {
        ids[n] = other;
        if (withCounts) counts[n] = otherCounts[j]! + (id === other ? ownCounts![i]! : 0);
        if (id === other) i++;
        j++;
      }
      n++;
    }
    this.idsOf = b;
    this.countsOf = withCounts ? b : -1;
  }
}
