import type { IdSet } from '../id-set';
import { BlockFrontier, FrontiersBuilder, type BlockFrontiers } from './block-frontier';
import { bitsAt, bitsBytes, bitWidth, pack, packBits, packedBytes, unpack, unpackGaps } from './bit-packing';
import {
  bestPatch,
  exceptionAt,
  exceptionBytes,
  lowBits,
  packExceptions,
  packPatched,
  patchCode,
  patchCost,
  patchUnpacked,
  PatchedReader,
  type Patch,
} from './patched-runs';
import { VarintCursor, VarintWriter } from './varint';

/**
 * The postings codec, writer and reader together: one token's documents (ascending ids)
 * and its column-weighted count in each, cut into blocks of `blockSize` documents.
 *
 *   header   format version, documents
 *   per block (all together, before any block's data, so a reader can skip blocks unread):
 *            last id (as a gap from the previous block's last id), the bit widths of its id
 *            gaps and of its counts above the least and whether the counts have exceptions
 *            (one number, id width + 32 × count width + 1056 if they have), then if they
 *            have, their exceptions and high bits' width (patched-runs.ts's patchCode), and
 *            its least count; then its frontier (block-frontier.ts): the pairs, the first
 *            (count, length) whole and each next as the falls from the one before
 *   per block: the id gaps less one, then the counts less the least, each bit-packed at
 *            its width (bit-packing.ts): a full block's in 32-bit words, the last block,
 *            when not full, to the byte and without its last id's gap, which its last id
 *            gives; the counts followed by their exceptions' places and high bits
 *            (patched-runs.ts: a block's few records that hold a word in their title among
 *            records that hold it in their full text no longer widen every other count).
 *            Gaps are not patched: decoding them is the hottest loop there is, and patched
 *            ones took it two and a half times as long
 *
 * Ids are gaps from the id before (the first from −1), less one, so a run of consecutive
 * ids packs at width 0 and takes no bytes; counts less the block's least, so a column's
 * list, whose counts are mostly its one weight, packs at width 0 too. A full block's bytes
 * follow from its widths alone.
 *
 * A block's frontier gives its exact best bm25 (bm25 grows with the count and falls with
 * the length), so a top-k search skips blocks that cannot enter it; ids and counts are
 * apart so counting and matching read no counts. Lengths are the records' token totals
 * when the block was written: every write that changes a record's length rewrites every
 * list that holds it (postings-update.ts), so the frontier stays exact.
 */

/** Changes with the layout above; a store written in another is rebuilt (schema.ts's layout version). */
export const postingsFormat = 5;

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
  /** The count of block b's i-th record alone, its block unread, where the list can (a filter's few records are scored so). */
  countAt?(b: number, i: number): number;
  /** Its records as a bitset, where its reader keeps them (dense-sets.ts); matching decodes the ids otherwise. */
  records?(): IdSet;
}

/** A patched last block's reader: one block is decoded at a time. */
const patchedReader = new PatchedReader();

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
/** A full block's values as packed: its gaps less one, or its counts less the least. */
const values = new Uint32Array(blockSize);
// Room for the run at 32 bits and for its every value an exception.
const packed = new Uint8Array(3 * packedBytes(blockSize, 32));

/** Whether a block's counts have exceptions, in its header's widths number. */
const patchedShift = 32 * 33;

/**
 * Writes `values[0..n)` patched at the width that makes them shortest: a full block's low
 * bits in 32-bit words, the last block's to the byte, then the exceptions. Returns the patch.
 */
function packRun(n: number, full: boolean): Patch {
  const patch = bestPatch(values, n, patchCost);
  const end = full
    ? packExceptions(values, n, patch, packed, pack(lowBits(values, n, patch.width), n, patch.width, packed, 0))
    : packPatched(values, n, patch, packed, 0);
  data.writeBytes(packed.subarray(0, end));
  return patch;
}

/** Encodes a list; `lengths[id]` is each record's token total (bm25's D). */
export function encodePostings(list: TokenPostings, lengths: ArrayLike<number>): Buffer {
  const { ids, counts } = list;
  const blocks = Math.ceil(ids.length / blockSize);
  data.clear();
  header.clear();
  header.write(postingsFormat);
  header.write(ids.length);
  let previous = -1;
  for (let b = 0; b < blocks; b++) {
    const start = b * blockSize;
    const end = Math.min(ids.length, start + blockSize);
    header.write(ids[end - 1]! - previous);
    const n = end - start;
    // The last block, when not full, less its last gap: its last id says it.
    const gaps = n === blockSize ? n : n - 1;
    for (let i = start; i < start + gaps; i++) values[i - start] = ids[i]! - (i === start ? previous : ids[i - 1]!) - 1;
    const idWidth = bitWidth(values, gaps);
    const low = values.subarray(0, gaps);
    data.writeBytes(packed.subarray(0, n === blockSize ? pack(low, gaps, idWidth, packed, 0) : packBits(low, gaps, idWidth, packed, 0)));
    let least = counts[start]!;
    for (let i = start + 1; i < end; i++) least = Math.min(least, counts[i]!);
    for (let i = start; i < end; i++) values[i - start] = counts[i]! - least;
    const countPatch = packRun(n, n === blockSize);
    header.write(idWidth + 32 * countPatch.width + patchedShift * (countPatch.exceptions ? 1 : 0));
    if (countPatch.exceptions) header.write(patchCode(countPatch));
    header.write(least);
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

/** A block's bytes in its table: its last id, the starts of its ids and counts, its least count (4 each) and widths (2). */
const tableBytesPerBlock = 18;

/**
 * A stored list's bytes and its block table, decoded once. Nothing here changes after the
 * constructor, so any number of lists (StoredPostings) may read one table at once: a reader
 * keeps a dense list's (postings-reader.ts) rather than read its bytes and decode its every
 * block's header again for each search that holds the word.
 */
export class BlockTable {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;
  readonly frontiers: BlockFrontiers;
  /** Where block b's ids start; its counts start at countStarts[b]. */
  readonly idStarts: Uint32Array;
  readonly countStarts: Uint32Array;
  /** Each block's bit widths, id + 32 × count, and least count (bit-packing.ts). */
  readonly widths: Uint16Array;
  readonly leastCounts: Uint32Array;
  /** Each block's counts' patch code (0: no exceptions), where any block has some. */
  readonly countPatches?: Uint32Array;

  constructor(readonly data: Uint8Array) {
    const read = new VarintCursor(data);
    const format = read.read();
    if (format !== postingsFormat) throw new Error(`A postings list in format ${format}; this engine reads format ${postingsFormat}.`);
    this.docs = read.read();
    this.blocks = Math.ceil(this.docs / blockSize);
    // One allocation for the five columns: a reader builds a table for every list it reads.
    const table = new ArrayBuffer(this.blocks * tableBytesPerBlock);
    this.lastIds = new Int32Array(table, 0, this.blocks);
    this.idStarts = new Uint32Array(table, this.blocks * 4, this.blocks);
    this.countStarts = new Uint32Array(table, this.blocks * 8, this.blocks);
    this.leastCounts = new Uint32Array(table, this.blocks * 12, this.blocks);
    this.widths = new Uint16Array(table, this.blocks * 16, this.blocks);
    const frontiers = new FrontiersBuilder(this.blocks);
    let last = -1;
    let patches: Uint32Array | undefined;
    for (let b = 0; b < this.blocks; b++) {
      this.lastIds[b] = last += read.read();
      const widths = read.read();
      this.widths[b] = widths % patchedShift;
      if (widths >= patchedShift) (patches ??= new Uint32Array(this.blocks))[b] = read.read();
      this.leastCounts[b] = read.read();
      const pairs = read.read();
      for (let k = 0, count = 0, length = 0; k < pairs; k++) {
        count = k === 0 ? read.read() : count - read.read();
        length = k === 0 ? read.read() : length - read.read();
        frontiers.push(count, length);
      }
      frontiers.endBlock();
    }
    // Every record of every block was added when the list was written: whole frontiers.
    this.frontiers = frontiers.build(true);
    if (patches) this.countPatches = patches;
    let at = read.at;
    for (let b = 0; b < this.blocks; b++) {
      const n = b < this.blocks - 1 ? blockSize : this.docs - b * blockSize;
      const bytes = n === blockSize ? packedBytes : bitsBytes;
      this.idStarts[b] = at;
      this.countStarts[b] = at += bytes(n === blockSize ? n : n - 1, this.widths[b]! % 32);
      at += bytes(n, this.widths[b]! >>> 5);
      if (patches) at += exceptionBytes(n, patches[b]!);
    }
  }

  /** About how many bytes it holds, its bytes and its table (what a reader that keeps it counts against its bound). */
  get bytes(): number {
    const { counts, lengths, starts } = this.frontiers;
    return (
      this.data.byteLength +
      this.blocks * tableBytesPerBlock +
      (this.countPatches ? 4 * this.blocks : 0) +
      counts.byteLength +
      lengths.byteLength +
      starts.byteLength
    );
  }
}

/** A stored list, its block table read up front (or shared: BlockTable) and its blocks decoded when asked for. */
export class StoredPostings implements Postings {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;
  readonly frontiers: BlockFrontiers;
  // The table's, held here too so the hot loops read them off this object.
  private readonly data: Uint8Array;
  private readonly idStarts: Uint32Array;
  private readonly countStarts: Uint32Array;
  private readonly widths: Uint16Array;
  private readonly leastCounts: Uint32Array;
  private readonly countPatches?: Uint32Array;
  /** This list's own: a list's blocks are valid until its next call, so lists sharing a table never share these. */
  private readonly idBuffer = new Int32Array(blockSize);
  private readonly countBuffer = new Uint32Array(blockSize);

  constructor(
    source: Uint8Array | BlockTable,
    readonly records?: () => IdSet,
  ) {
    const table = source instanceof BlockTable ? source : new BlockTable(source);
    this.data = table.data;
    this.docs = table.docs;
    this.blocks = table.blocks;
    this.lastIds = table.lastIds;
    this.frontiers = table.frontiers;
    this.idStarts = table.idStarts;
    this.countStarts = table.countStarts;
    this.widths = table.widths;
    this.leastCounts = table.leastCounts;
    if (table.countPatches) this.countPatches = table.countPatches;
  }

  /** Whether `other` is stored in the same bytes: the same records with the same counts and lengths. */
  sameAs(other: Postings): boolean {
    return other instanceof StoredPostings && other.docs === this.docs && Buffer.compare(other.data, this.data) === 0;
  }

  size(b: number): number {
    return b < this.blocks - 1 ? blockSize : this.docs - b * blockSize;
  }

  ids(b: number): Int32Array {
    const n = this.size(b);
    const out = this.idBuffer;
    const previous = b > 0 ? this.lastIds[b - 1]! : -1;
    if (n === blockSize) {
      unpackGaps(this.data, this.idStarts[b]!, n, this.widths[b]! % 32, previous, out);
      return out;
    }
    // The last block, not full: read where its values stand; its last id is the block's.
    const [at, width] = [this.idStarts[b]!, this.widths[b]! % 32];
    for (let i = 0, id = previous; i < n - 1; i++) out[i] = id += bitsAt(this.data, at, i, width) + 1;
    out[n - 1] = this.lastIds[b]!;
    return out.subarray(0, n);
  }

  counts(b: number): Uint32Array {
    const n = this.size(b);
    const out = this.countBuffer;
    const [at, width, least] = [this.countStarts[b]!, this.widths[b]! >>> 5, this.leastCounts[b]!];
    const code = this.countPatches?.[b] ?? 0;
    if (n === blockSize) {
      unpack(this.data, at, n, width, least, out);
      // The exceptions follow the counts' low bits.
      if (code !== 0) patchUnpacked(this.data, at + packedBytes(n, width), n, width, code, out);
      return out;
    }
    if (code === 0) for (let i = 0; i < n; i++) out[i] = least + bitsAt(this.data, at, i, width);
    else {
      const reader = patchedReader;
      reader.enter(this.data, at, n, width, code);
      for (let i = 0; i < n; i++) out[i] = least + reader.get(i);
    }
    return out.subarray(0, n);
  }

  countAt(b: number, i: number): number {
    // A full block's counts are packed as the others are, value after value from the low bits.
    const [at, width] = [this.countStarts[b]!, this.widths[b]! >>> 5];
    const low = this.leastCounts[b]! + bitsAt(this.data, at, i, width);
    const code = this.countPatches?.[b] ?? 0;
    if (code === 0) return low;
    const n = this.size(b);
    return low + exceptionAt(this.data, at + (n === blockSize ? packedBytes : bitsBytes)(n, width), n, width, code, i);
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

  countAt(b: number, i: number): number {
    return this.list.counts[b * blockSize + i]!;
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
