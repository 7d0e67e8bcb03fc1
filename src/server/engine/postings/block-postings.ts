import type { IdSet } from '../id-set';
import { BlockFrontier, FrontiersBuilder, type BlockFrontiers } from './block-frontier';
import { VarintCursor, VarintWriter } from './varint';

/**
 * The postings codec, writer and reader together: one token's documents (ascending ids)
 * and its column-weighted count in each, cut into blocks of `blockSize` documents.
 *
 *   header   format version, documents, blocks
 *   per block (all together, before any block's data, so a reader can skip blocks unread):
 *            last id (as a gap from the previous block's last id), bytes of ids, bytes of
 *            counts, then its frontier (block-frontier.ts): the pairs, the first (count,
 *            length) whole and each next as the falls from the one before
 *   per block: the id gaps, then the counts, as LEB128
 *
 * A block's frontier gives its exact best bm25 (bm25 grows with the count and falls with
 * the length), so a top-k search skips blocks that cannot enter it; ids and counts are
 * apart so counting and matching read no counts. Lengths are the records' token totals
 * when the block was written: every write that changes a record's length rewrites every
 * list that holds it (postings-update.ts), so the frontier stays exact.
 */

/** Changes with the layout above; a store written in another is rebuilt (schema.ts's layout version). */
export const postingsFormat = 2;

export const blockSize = 128;

/** The documents that hold one token, ascending, and its weighted count in each. */
export interface TokenPostings {
  readonly ids: Int32Array;
  readonly counts: Uint32Array;
}

/** A list of no documents. */
export const noPostings: TokenPostings = { ids: new Int32Array(0), counts: new Uint32Array(0) };

/** A postings list by blocks: what the query layer reads, stored or computed (a prefix, a phrase). */
export interface Postings {
  readonly docs: number;
  readonly blocks: number;
  /** lastIds[b]: the largest id of block b. */
  readonly lastIds: Int32Array;
  /** Each block's best (count, length) pairs, which bound bm25 over it. */
  readonly frontiers: BlockFrontiers;
  /** Block b's ids; the array is the list's own, valid until its next call. */
  ids(b: number): Int32Array;
  /** How many documents block b holds, its ids unread. */
  size(b: number): number;
  /** Block b's counts, in the order of its ids; valid until the next call. */
  counts(b: number): Uint32Array;
  /** Its records as a bitset, where its reader keeps them (dense-sets.ts); matching decodes the ids otherwise. */
  records?(): IdSet;
}

/** A block's frontier, worked out here one block at a time (lists are encoded one at a time). */
const frontier = new BlockFrontier(blockSize);

function frontierOfBlock({ ids, counts }: TokenPostings, lengths: ArrayLike<number>, start: number, end: number): BlockFrontier {
  frontier.clear();
  for (let i = start; i < end; i++) frontier.add(counts[i]!, lengths[ids[i]!] ?? 0);
  return frontier;
}

/** The encoder's writers, emptied for each list (lists are encoded one at a time). */
const data = new VarintWriter();
const header = new VarintWriter();

/** Encodes a list; `lengths[id]` is each record's token total (bm25's D). */
export function encodePostings(list: TokenPostings, lengths: ArrayLike<number>): Buffer {
  const { ids, counts } = list;
  const blocks = Math.ceil(ids.length / blockSize);
  data.clear();
  header.clear();
  header.write(postingsFormat);
  header.write(ids.length);
  header.write(blocks);
  let previous = 0;
  for (let b = 0; b < blocks; b++) {
    const start = b * blockSize;
    const end = Math.min(ids.length, start + blockSize);
    const before = data.length;
    for (let i = start; i < end; i++) data.write(ids[i]! - (i === start ? previous : ids[i - 1]!));
    const idBytes = data.length - before;
    for (let i = start; i < end; i++) data.write(counts[i]!);
    header.write(ids[end - 1]! - previous);
    header.write(idBytes);
    header.write(data.length - before - idBytes);
    const { size, counts: best, lengths: shortest } = frontierOfBlock(list, lengths, start, end);
    header.write(size);
    for (let k = 0; k < size; k++) {
      header.write(k === 0 ? best[k]! : best[k - 1]! - best[k]!);
      header.write(k === 0 ? shortest[k]! : shortest[k - 1]! - shortest[k]!);
    }
    previous = ids[end - 1]!;
  }
  return Buffer.concat([header.toBuffer(), data.toBuffer()]);
}

/** A stored list, its block table read up front and its blocks decoded when asked for. */
export class StoredPostings implements Postings {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;
  readonly frontiers: BlockFrontiers;
  /** Where block b's ids start; its counts start at countStarts[b]. */
  private readonly idStarts: Uint32Array;
  private readonly countStarts: Uint32Array;
  private readonly idBuffer = new Int32Array(blockSize);
  private readonly countBuffer = new Uint32Array(blockSize);
  private readonly cursor = new VarintCursor();

  constructor(
    private readonly data: Uint8Array,
    readonly records?: () => IdSet,
  ) {
    const read = new VarintCursor(data);
    const format = read.read();
    if (format !== postingsFormat) throw new Error(`A postings list in format ${format}; this engine reads format ${postingsFormat}.`);
    this.docs = read.read();
    this.blocks = read.read();
    this.lastIds = new Int32Array(this.blocks);
    this.idStarts = new Uint32Array(this.blocks);
    this.countStarts = new Uint32Array(this.blocks);
    const idBytes = new Uint32Array(this.blocks);
    const countBytes = new Uint32Array(this.blocks);
    const frontiers = new FrontiersBuilder(this.blocks);
    let last = 0;
    for (let b = 0; b < this.blocks; b++) {
      this.lastIds[b] = last += read.read();
      idBytes[b] = read.read();
      countBytes[b] = read.read();
      const pairs = read.read();
      for (let k = 0, count = 0, length = 0; k < pairs; k++) {
        count = k === 0 ? read.read() : count - read.read();
        length = k === 0 ? read.read() : length - read.read();
        frontiers.push(count, length);
      }
      frontiers.endBlock();
    }
    this.frontiers = frontiers.build();
    let at = read.at;
    for (let b = 0; b < this.blocks; b++) {
      this.idStarts[b] = at;
      this.countStarts[b] = at += idBytes[b]!;
      at += countBytes[b]!;
    }
  }

  size(b: number): number {
    return b < this.blocks - 1 ? blockSize : this.docs - b * blockSize;
  }

  ids(b: number): Int32Array {
    const n = this.size(b);
    const out = this.idBuffer;
    const read = this.cursor;
    read.seek(this.data, this.idStarts[b]!);
    read.readGaps(out, n, b > 0 ? this.lastIds[b - 1]! : 0);
    return out.subarray(0, n);
  }

  counts(b: number): Uint32Array {
    const n = this.size(b);
    const out = this.countBuffer;
    const read = this.cursor;
    read.seek(this.data, this.countStarts[b]!);
    read.readCounts(out, n);
    return out.subarray(0, n);
  }
}

/**
 * A list computed at search time (several lists merged, a phrase's matches), by blocks as a
 * stored one is. Its frontiers come with it: it lives for one search, whose length norms
 * are known, so the best pair under them is enough (query/bm25.ts, blockBests).
 */
export class ComputedPostings implements Postings {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;

  constructor(
    readonly list: TokenPostings,
    readonly frontiers: BlockFrontiers,
  ) {
    const { ids } = list;
    this.docs = ids.length;
    this.blocks = Math.ceil(ids.length / blockSize);
    this.lastIds = new Int32Array(this.blocks);
    for (let b = 0; b < this.blocks; b++) this.lastIds[b] = ids[Math.min(ids.length, (b + 1) * blockSize) - 1]!;
  }

  ids(b: number): Int32Array {
    return this.list.ids.subarray(b * blockSize, Math.min(this.docs, (b + 1) * blockSize));
  }

  size(b: number): number {
    return Math.min(this.docs, (b + 1) * blockSize) - b * blockSize;
  }

  counts(b: number): Uint32Array {
    return this.list.counts.subarray(b * blockSize, Math.min(this.docs, (b + 1) * blockSize));
  }
}

/** Every id and count of a list, in one pair of arrays. */
export function decodePostings(postings: Postings): TokenPostings {
  const ids = new Int32Array(postings.docs);
  const counts = new Uint32Array(postings.docs);
  // Blocks are full but for the last of each stored part (joined-postings.ts), so each goes where the last ended.
  for (let b = 0, at = 0; b < postings.blocks; b++) {
    const block = postings.ids(b);
    ids.set(block, at);
    counts.set(postings.counts(b), at);
    at += block.length;
  }
  return { ids, counts };
}

/** Every id of a list (its counts unread). */
export function decodeIds(postings: Postings): Int32Array {
  const ids = new Int32Array(postings.docs);
  for (let b = 0, at = 0; b < postings.blocks; b++) {
    const block = postings.ids(b);
    ids.set(block, at);
    at += block.length;
  }
  return ids;
}

/**
 * Adds a list's counts into `countsById` (indexed by record id); returns how many records
 * had no count before. Lists searched together (a prefix's expansions, a parameter's
 * columns) are merged this way.
 */
export function addPostings(postings: Postings, countsById: Uint32Array): number {
  let added = 0;
  for (let b = 0; b < postings.blocks; b++) {
    const ids = postings.ids(b);
    const counts = postings.counts(b);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (countsById[id] === 0) added++;
      countsById[id]! += counts[i]!;
    }
  }
  return added;
}
