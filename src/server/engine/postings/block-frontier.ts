import { doubled } from '../typed-arrays';

/**
 * A block's frontier: the (count, length) pairs of its records that no other record of the
 * block matches on both, with a count as large and a record as short. bm25 grows with the
 * count and falls with the length whatever the average length, so a block's best score is
 * one of its frontier's: block-max reads a block's exact maximum from a few pairs, where
 * the largest count over the shortest length, two records more often than not, overstates
 * it and keeps nearly every block of a common word in play.
 *
 * A frontier's pairs go by count, largest first; their lengths then fall too.
 */
export interface BlockFrontiers {
  /** Block b's pairs are at starts[b] up to starts[b + 1]. */
  readonly starts: Uint32Array;
  readonly counts: Uint32Array;
  readonly lengths: Uint32Array;
  /**
   * Whether each block's pairs are its whole frontier, as a stored list keeps them: then every
   * record has a pair with as large a count and as short a length, and the last pair's length
   * is the block's shortest. A list computed for one search keeps only its best pair (bm25.ts).
   */
  readonly whole?: boolean;
}

/** One block's frontier, built record by record; cleared and reused block after block. */
export class BlockFrontier {
  size = 0;
  readonly counts: Uint32Array;
  readonly lengths: Uint32Array;

  constructor(records: number) {
    this.counts = new Uint32Array(records);
    this.lengths = new Uint32Array(records);
  }

  clear(): void {
    this.size = 0;
  }

  /** Adds a record, which stays on the frontier only if no record so far matches or beats it. */
  add(count: number, length: number): void {
    const { counts, lengths, size } = this;
    let i = 0;
    while (i < size && counts[i]! > count) i++;
    // A record with a larger count (before i) or the same count (at i) that is no longer beats it.
    if (i > 0 && lengths[i - 1]! <= length) return;
    if (i < size && counts[i] === count && lengths[i]! <= length) return;
    // It beats the pairs from i on that are no shorter: a run, since lengths fall.
    let end = i;
    while (end < size && lengths[end]! >= length) end++;
    // Pairs after the run move to just after i: a few at most, moved by hand (copyWithin's call costs more).
    const shift = 1 - (end - i);
    if (shift > 0) {
      for (let k = size; k > end; k--) {
        counts[k] = counts[k - 1]!;
        lengths[k] = lengths[k - 1]!;
      }
    } else if (shift < 0) {
      for (let k = end; k < size; k++) {
        counts[k + shift] = counts[k]!;
        lengths[k + shift] = lengths[k]!;
      }
    }
    this.size += shift;
    counts[i] = count;
    lengths[i] = length;
  }
}

/** Collects a list's frontiers, block after block. */
export class FrontiersBuilder {
  private counts: Uint32Array;
  private lengths: Uint32Array;
  private readonly starts: Uint32Array;
  private size = 0;
  private blocks = 0;

  constructor(blocks: number) {
    // One allocation for the three: a reader builds frontiers for every list it reads.
    const pairs = Math.max(4, blocks * 4);
    const buffer = new ArrayBuffer(4 * (blocks + 1 + 2 * pairs));
    this.starts = new Uint32Array(buffer, 0, blocks + 1);
    this.counts = new Uint32Array(buffer, 4 * (blocks + 1), pairs);
    this.lengths = new Uint32Array(buffer, 4 * (blocks + 1 + pairs), pairs);
  }

  /** Adds a pair of the open block, after its others. */
  push(count: number, length: number): void {
    if (this.size === this.counts.length) {
      this.counts = doubled(this.counts);
      this.lengths = doubled(this.lengths);
    }
    this.counts[this.size] = count;
    this.lengths[this.size++] = length;
  }

  /** Closes the open block. */
  endBlock(): void {
    this.starts[++this.blocks] = this.size;
  }

  /** The frontiers, `whole` where every record of each block was added (BlockFrontiers.whole). */
  build(whole = false): BlockFrontiers {
    return { starts: this.starts, counts: this.counts.subarray(0, this.size), lengths: this.lengths.subarray(0, this.size), whole };
  }
}

/** The frontiers of two lists' blocks, the second's after the first's (a list and its tail). */
export function joinFrontiers(first: BlockFrontiers, second: BlockFrontiers): BlockFrontiers {
  const blocks = first.starts.length - 1;
  const pairs = first.counts.length;
  const starts = new Uint32Array(blocks + second.starts.length);
  starts.set(first.starts);
  for (let b = 1; b < second.starts.length; b++) starts[blocks + b] = pairs + second.starts[b]!;
  const join = (a: Uint32Array, b: Uint32Array) => {
    const joined = new Uint32Array(a.length + b.length);
    joined.set(a);
    joined.set(b, a.length);
    return joined;
  };
  return {
    starts,
    counts: join(first.counts, second.counts),
    lengths: join(first.lengths, second.lengths),
    whole: first.whole === true && second.whole === true,
  };
}
