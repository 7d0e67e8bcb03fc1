import { searchColumns } from '../../../deployments/schema';
import { columnWeights } from '../../../deployments/search-model';
import { VarintCursor, VarintWriter } from './varint';
import { bitsAt, bitsBytes, bitWidth, packBits, unpack } from './bit-packing';
import { blockSize, type TokenPostings } from './block-postings';
import { doubled } from '../typed-arrays';
import { tokenColumns } from './token-columns';

/**
 * The positions codec, writer and reader together: a token's instances in each document of
 * its whole-record list, in the list's order, each as (column, offset), the column its
 * place in `searchColumns`. Phrases are matched from them (query/phrase.ts,
 * query/prefix-phrase.ts). The documents are cut into blocks of `blockSize`, as the
 * postings are:
 *
 *   header   format version, documents
 *   per block (all together, before any block's data, so a reader finds every block unread):
 *            its instances, then one number for the set of columns its instances are in and
 *            the bit widths of its counts and offsets (blockWidths)
 *   per block: three runs, each bit-packed to the byte (bit-packing.ts): each document's
 *            instances less one, at their width; each instance's column as its rank among the
 *            block's columns, at the width of the largest rank; each instance's offset, the
 *            first in its column as it is and the next ones in that column as the gap from the
 *            one before, at their width
 *
 * A block's runs start at byte lengths that follow from its widths and counts, and a value
 * of a run is read where it stands, so a walk reads one document's instances without
 * decoding the documents before it: the counts of its block, summed, say where they are.
 * Most documents hold a token once, in one column, so the counts pack at width 0 and a
 * block whose instances are all in one column (a title word's) packs its columns at 0 too.
 * A column is its rank in the block's set rather than its place less the block's least: a
 * common word's block is mostly in a few columns far apart in `searchColumns` (description
 * and full text, with title and subjects), which ranks pack at one or two bits where places
 * took four.
 */

/** bm25's weight of each column, by its position in `searchColumns`. */
export const weights = searchColumns.map((column) => columnWeights[column]);

/** The `col` of the postings of a token over whole records (the others name one column). */
export const wholeRecord = '';

/** One token's instances in one document, in (column, offset) order; arrays grow as needed. */
export interface Instances {
  columns: Int32Array;
  offsets: Int32Array;
  length: number;
}

export const noInstances = (): Instances => ({ columns: new Int32Array(16), offsets: new Int32Array(16), length: 0 });

/** A token's instances in every document of its list, in the list's order, as flat arrays: what is encoded, and decoded whole. */
export interface DocumentInstances {
  /** Each document's number of instances. */
  readonly counts: Uint32Array;
  /** Every instance's column (its place in `searchColumns`) and offset there, document after document, each in (column, offset) order. */
  readonly columns: Int32Array;
  readonly offsets: Int32Array;
}

export const noDocumentInstances: DocumentInstances = {
  counts: new Uint32Array(0),
  columns: new Int32Array(0),
  offsets: new Int32Array(0),
};

/** Changes with the layout above; a store written in another is rebuilt (schema.ts's layout version). */
export const positionsFormat = 2;

/** A block's set of columns is a bit per column: a number below this. */
const columnSets = 1 << searchColumns.length;

/** A block's set of columns and its count and offset widths as one header number, and back (the columns' width follows from the set). */
const blockWidths = (set: number, countWidth: number, offsetWidth: number): number =>
  set | ((offsetWidth + 33 * countWidth) << searchColumns.length);

/** By set of columns: the bits a rank among them takes. */
const rankWidths = Uint8Array.from({ length: columnSets }, (_, set) => {
  let size = 0;
  for (let rest = set; rest !== 0; rest &= rest - 1) size++;
  return size > 1 ? 32 - Math.clz32(size - 1) : 0;
});

/** By set of columns: its columns in ascending order, `searchColumns.length` places a set (a walk enters blocks often). */
const columnsOfSets = new Int32Array(columnSets * searchColumns.length);
for (let set = 0; set < columnSets; set++)
  for (let column = 0, rank = 0; column < searchColumns.length; column++)
    if (set & (1 << column)) columnsOfSets[set * searchColumns.length + rank++] = column;

/** Each column's rank in a block's set, for the encoder. */
const ranks = new Int32Array(searchColumns.length);

/** The encoder's writers and runs, emptied for each token (tokens are encoded one at a time). */
const header = new VarintWriter();
const body = new VarintWriter();
let values = new Uint32Array(1024);
let packed = new Uint8Array(4096);

/** Packs `n` values of `values` at their width into the body; returns the width. */
function packRun(n: number): number {
  const width = bitWidth(values, n);
  const bytes = bitsBytes(n, width);
  if (packed.length < bytes) packed = new Uint8Array(bytes);
  body.writeBytes(packed.subarray(0, packBits(values, n, width, packed, 0)));
  return width;
}

/** Full blocks of stored positions, kept as they are ahead of what is encoded after them. */
interface KeptBlocks {
  readonly part: StoredPositions;
  readonly blocks: number;
}

/**
 * Encodes a token's instances, one entry of `counts` per document of its whole-record list;
 * after the first full blocks of a stored part, if `kept` names them, copied as they are.
 */
export function encodePositions({ counts, columns, offsets }: DocumentInstances, kept?: KeptBlocks): Buffer {
  header.clear();
  body.clear();
  header.write(positionsFormat);
  header.write((kept ? kept.blocks * blockSize : 0) + counts.length);
  if (kept) {
    const { part, blocks } = kept;
    for (let b = 0; b < blocks; b++) {
      header.write(part.table[3 * b]!);
      header.write(part.table[3 * b + 1]!);
    }
    const end = blocks < part.blocks ? part.table[3 * blocks + 2]! : part.data.length;
    body.writeBytes(part.data.subarray(part.table[2], end));
  }
  for (let start = 0, first = 0; start < counts.length; start += blockSize) {
    const end = Math.min(counts.length, start + blockSize);
    let n = 0;
    for (let d = start; d < end; d++) n += counts[d]!;
    if (values.length < Math.max(n, blockSize)) values = new Uint32Array(Math.max(n, blockSize));
    for (let d = start; d < end; d++) values[d - start] = counts[d]! - 1;
    const countWidth = packRun(end - start);
    let set = 0;
    for (let i = first; i < first + n; i++) set |= 1 << columns[i]!;
    for (let column = 0, rank = 0; column < ranks.length; column++) if (set & (1 << column)) ranks[column] = rank++;
    for (let i = first; i < first + n; i++) values[i - first] = ranks[columns[i]!]!;
    packRun(n);
    // A document's first instance in a column as its offset, the next ones in that column as the gap from the one before.
    for (let d = start, i = first; d < end; d++) {
      for (let last = i + counts[d]!, column = -1, offset = 0; i < last; i++) {
        values[i - first] = columns[i] === column ? offsets[i]! - offset : offsets[i]!;
        column = columns[i]!;
        offset = offsets[i]!;
      }
    }
    const offsetWidth = packRun(n);
    header.write(n);
    header.write(blockWidths(set, countWidth, offsetWidth));
    first += n;
  }
  return Buffer.concat([header.toBuffer(), body.toBuffer()]);
}

/** A stored token's positions: its block table read up front, each document's instances read where they stand. */
export class StoredPositions {
  readonly docs: number;
  readonly blocks: number;
  /**
   * Per block, in one array (one allocation: a phrase opens many): its instances, its
   * header number of widths and columns, and where its runs start.
   */
  readonly table: Uint32Array;
  /** Per block, its documents' marks (mark()), once a walk asks for one. */
  private marks: Uint32Array | undefined;

  constructor(readonly data: Uint8Array) {
    const read = new VarintCursor(data);
    const format = read.read();
    if (format !== positionsFormat) throw new Error(`Positions in format ${format}; this engine reads format ${positionsFormat}.`);
    this.docs = read.read();
    const blocks = (this.blocks = Math.ceil(this.docs / blockSize));
    const table = (this.table = new Uint32Array(3 * blocks));
    for (let b = 0; b < blocks; b++) {
      table[3 * b] = read.read();
      table[3 * b + 1] = read.read();
    }
    for (let b = 0, at = read.at; b < blocks; b++) {
      table[3 * b + 2] = at;
      const widths = table[3 * b + 1]!;
      const instances = table[3 * b]!;
      at +=
        bitsBytes(this.size(b), countWidthOf(widths)) +
        bitsBytes(instances, rankWidths[setOf(widths)]!) +
        bitsBytes(instances, offsetWidthOf(widths));
    }
  }

  /** How many documents block b holds. */
  size(b: number): number {
    return Math.min(blockSize, this.docs - b * blockSize);
  }

  /**
   * Where the instances of block b's `m × markEvery`th document start in the block. A block's
   * marks are found from its counts the first time one is asked for, then kept: a phrase
   * that reads an author's initial in a few documents of each block passed over nearly all
   * of its counts in every search, and now reads at most `markEvery` of them per document.
   * The first document's mark, always 0, says whether the block's marks are found.
   */
  mark(b: number, m: number): number {
    const marks = (this.marks ??= new Uint32Array(this.blocks * marksPerBlock));
    const at = b * marksPerBlock;
    if (marks[at] === 0) {
      const size = this.size(b);
      const end = Math.min(size, blockSize - markEvery);
      const countWidth = countWidthOf(this.table[3 * b + 1]!);
      const countsAt = this.table[3 * b + 2]!;
      // Counts unpacked 32 at a time, as far as the run holds whole words of them (a full block's all); the rest read where they stand.
      const whole = size === blockSize ? blockSize : end & ~31;
      unpack(this.data, countsAt, whole, countWidth, 1, blockCounts);
      for (let d = whole; d < end; d++) blockCounts[d] = 1 + bitsAt(this.data, countsAt, d, countWidth);
      for (let d = 0, first = 0; d < end; d++) {
        first += blockCounts[d]!;
        if ((d + 1) % markEvery === 0) marks[at + (d + 1) / markEvery] = first;
      }
      marks[at] = 1;
    }
    return m === 0 ? 0 : marks[at + m]!;
  }
}

/** A block's counts (each document's instances), unpacked to find its marks. */
const blockCounts = new Uint32Array(blockSize);

/** A block's documents between two marks (StoredPositions.mark): a power of two. */
const markEvery = 16;
const marksPerBlock = blockSize / markEvery;

/** What a block's header number (blockWidths) holds. */
const setOf = (widths: number): number => widths & (columnSets - 1);
const offsetWidthOf = (widths: number): number => (widths >>> searchColumns.length) % 33;
const countWidthOf = (widths: number): number => ((widths >>> searchColumns.length) / 33) | 0;

/** A stored token's positions in the parts its whole-record list is stored in (joined-postings.ts): part k holds the documents from the list's `starts[k]`th on. */
export interface PositionParts {
  readonly parts: readonly StoredPositions[];
  readonly starts: readonly number[];
}

const noPart = new StoredPositions(Buffer.from([positionsFormat, 0]));

/**
 * Walks a token's positions forward, document by document, across its parts. A document's
 * instances are read where they stand, found from the counts of the documents before it in
 * its block: passing over documents costs one count each (none where the block's counts
 * pack at width 0), so a phrase that reads a stopword's positions in a few of its million
 * documents goes to each without decoding the others.
 */
export class PositionsWalk {
  /** The document (its place in the token's list) whose positions come next. */
  doc = 0;
  /** The instance `instance()` read last: its column's place in `searchColumns`, and its offset there. */
  column = -1;
  offset = 0;
  private part = 0;
  private current: StoredPositions;
  private partStart = 0;
  private partEnd: number;
  /** The block entered last (of the current part), its part's data, where its set's columns start in columnsOfSets, its widths and where its runs start. */
  private block = -1;
  private data: Uint8Array = noPart.data;
  private ranksAt = 0;
  private countWidth = 0;
  private columnWidth = 0;
  private offsetWidth = 0;
  private countsAt = 0;
  private columnsAt = 0;
  private offsetsAt = 0;
  /** A document of the block (its place there) and where its instances start: the walk's place in the block. */
  private blockDoc = 0;
  private first = 0;
  /** The document `document()` opened: its next instance and the end of its instances. */
  private next = 0;
  private end = 0;

  constructor(private readonly positions: PositionParts) {
    this.current = positions.parts[0] ?? noPart;
    this.partEnd = positions.starts[1] ?? Infinity;
    this.settle();
  }

  /** Passes over the next document's positions. */
  skip(): void {
    this.skipTo(this.doc + 1);
  }

  /** Passes over the documents before the `doc`th. */
  skipTo(doc: number): void {
    if (doc <= this.doc) return;
    this.doc = doc;
    this.settle();
  }

  /** Starts reading the next document, one instance at a time (`instance()`); returns its number of instances. */
  document(): number {
    const local = this.doc - this.partStart;
    const b = Math.floor(local / blockSize);
    if (b !== this.block) this.enter(b);
    const j = local - b * blockSize;
    // From the walk's place in the block to the document: its instances start after those of the documents between.
    let first = this.first;
    if (this.countWidth === 0) first += j - this.blockDoc;
    else {
      let d = this.blockDoc;
      // Far ahead in the block: from the mark before the document rather than over every count between.
      const marked = j - (j % markEvery);
      if (marked - d >= markEvery / 2) {
        d = marked;
        first = this.current.mark(b, marked / markEvery);
      }
      for (; d < j; d++) first += 1 + bitsAt(this.data, this.countsAt, d, this.countWidth);
    }
    const n = this.countWidth === 0 ? 1 : 1 + bitsAt(this.data, this.countsAt, j, this.countWidth);
    this.blockDoc = j + 1;
    this.first = first + n;
    this.next = first;
    this.end = first + n;
    this.column = -1;
    this.offset = 0;
    this.doc++;
    this.settle();
    return n;
  }

  /** Reads the opened document's next instance into `column` and `offset`. */
  instance(): void {
    const i = this.next++;
    const column = columnsOfSets[this.ranksAt + (this.columnWidth === 0 ? 0 : bitsAt(this.data, this.columnsAt, i, this.columnWidth))]!;
    const value = bitsAt(this.data, this.offsetsAt, i, this.offsetWidth);
    this.offset = column === this.column ? this.offset + value : value;
    this.column = column;
  }

  /** Reads the next document's positions into `into`: instance() over them, its loop on locals (every instance of a walk goes through it). */
  read(into: Instances): void {
    const n = this.document();
    if (into.columns.length < n) {
      into.columns = new Int32Array(n);
      into.offsets = new Int32Array(n);
    }
    const { data, ranksAt, columnWidth, offsetWidth, columnsAt, offsetsAt } = this;
    const { columns, offsets } = into;
    let column = -1;
    let offset = 0;
    for (let i = 0, k = this.next; i < n; i++, k++) {
      const next = columnsOfSets[ranksAt + (columnWidth === 0 ? 0 : bitsAt(data, columnsAt, k, columnWidth))]!;
      const value = bitsAt(data, offsetsAt, k, offsetWidth);
      offset = next === column ? offset + value : value;
      column = next;
      columns[i] = column;
      offsets[i] = offset;
    }
    this.next += n;
    into.length = n;
  }

  /** Enters block b of the current part, at its first document. */
  private enter(b: number): void {
    const { data, table } = this.current;
    const widths = table[3 * b + 1]!;
    const instances = table[3 * b]!;
    this.block = b;
    this.data = data;
    const set = setOf(widths);
    this.ranksAt = set * searchColumns.length;
    this.countWidth = countWidthOf(widths);
    this.columnWidth = rankWidths[set]!;
    this.offsetWidth = offsetWidthOf(widths);
    this.countsAt = table[3 * b + 2]!;
    this.columnsAt = this.countsAt + bitsBytes(this.current.size(b), this.countWidth);
    this.offsetsAt = this.columnsAt + bitsBytes(instances, this.columnWidth);
    this.blockDoc = 0;
    this.first = 0;
  }

  /** Moves to the part that holds the next document, once the current one is done. */
  private settle(): void {
    while (this.doc >= this.partEnd) {
      this.current = this.positions.parts[++this.part] ?? noPart;
      this.block = -1;
      this.partStart = this.partEnd;
      this.partEnd = this.positions.starts[this.part + 1] ?? Infinity;
    }
  }
}

/** The instances of the documents of stored positions (its parts one after the other) from the `from`th on, in one set of flat arrays: what a write merges. */
export function decodePositions(parts: readonly StoredPositions[], from = 0): DocumentInstances {
  const starts: number[] = [];
  for (let k = 0, start = 0; k < parts.length; start += parts[k++]!.docs) starts.push(start);
  const docs = parts.reduce((sum, part) => sum + part.docs, 0) - from;
  const walk = new PositionsWalk({ parts, starts });
  walk.skipTo(from);
  const counts = new Uint32Array(docs);
  let columns = new Int32Array(Math.max(16, docs));
  let offsets = new Int32Array(columns.length);
  let n = 0;
  for (let d = 0; d < docs; d++) {
    const count = (counts[d] = walk.document());
    while (n + count > columns.length) {
      columns = doubled(columns);
      offsets = doubled(offsets);
    }
    for (let i = 0; i < count; i++, n++) {
      walk.instance();
      columns[n] = walk.column;
      offsets[n] = walk.offset;
    }
  }
  return { counts, columns: columns.subarray(0, n), offsets: offsets.subarray(0, n) };
}

/** Where each document's instances start in `instances`' flat arrays, and the end. */
export function instanceStarts({ counts }: DocumentInstances): Uint32Array {
  const starts = new Uint32Array(counts.length + 1);
  for (let d = 0; d < counts.length; d++) starts[d + 1] = starts[d]! + counts[d]!;
  return starts;
}

/** Flat instances gathered from runs of documents of others, at most `docs` documents and `instances` instances in all. */
export class DocumentsJoiner {
  private readonly counts: Uint32Array;
  private readonly columns: Int32Array;
  private readonly offsets: Int32Array;
  private docs = 0;
  private instances = 0;

  constructor(docs: number, instances: number) {
    this.counts = new Uint32Array(docs);
    this.columns = new Int32Array(instances);
    this.offsets = new Int32Array(instances);
  }

  /** Appends documents `from` to below `to` of `source`, whose instanceStarts are `starts`. */
  add(source: DocumentInstances, starts: Uint32Array, from: number, to: number): void {
    this.counts.set(source.counts.subarray(from, to), this.docs);
    this.columns.set(source.columns.subarray(starts[from], starts[to]), this.instances);
    this.offsets.set(source.offsets.subarray(starts[from], starts[to]), this.instances);
    this.docs += to - from;
    this.instances += starts[to]! - starts[from]!;
  }

  build(): DocumentInstances {
    return {
      counts: this.counts.subarray(0, this.docs),
      columns: this.columns.subarray(0, this.instances),
      offsets: this.offsets.subarray(0, this.instances),
    };
  }
}

/** One token's instances followed by another's: a list's and those appended after it. */
export function joinedInstances(first: DocumentInstances, second: DocumentInstances): DocumentInstances {
  const joiner = new DocumentsJoiner(first.counts.length + second.counts.length, first.columns.length + second.columns.length);
  joiner.add(first, instanceStarts(first), 0, first.counts.length);
  joiner.add(second, instanceStarts(second), 0, second.counts.length);
  return joiner.build();
}

/** Growing lists of documents and counts, one document at a time in ascending order, in typed arrays that double. */
class PostingsBuilder {
  private ids: Int32Array;
  private counts: Uint32Array;
  private length = 0;

  /** `capacity`: the documents it is sized for at first (it doubles past them). */
  constructor(capacity = 8) {
    this.ids = new Int32Array(Math.max(1, capacity));
    this.counts = new Uint32Array(this.ids.length);
  }

  add(doc: number, weight: number): void {
    const last = this.length - 1;
    if (last >= 0 && this.ids[last] === doc) {
      this.counts[last]! += weight;
      return;
    }
    if (this.length === this.ids.length) {
      this.ids = doubled(this.ids);
      this.counts = doubled(this.counts);
    }
    this.ids[this.length] = doc;
    this.counts[this.length++] = weight;
  }

  build(): TokenPostings {
    return { ids: this.ids.subarray(0, this.length), counts: this.counts.subarray(0, this.length) };
  }
}

/** A token's (or a pair's) lists over whole records and per column, from its instances in record order. */
export class ListsBuilder {
  private readonly whole: PostingsBuilder;
  /** By column's place in `searchColumns`, in the order first met. */
  private readonly byColumn: (PostingsBuilder | undefined)[] = [];
  private readonly columns: number[] = [];

  /**
   * `byColumn[c]`: whether column c's instances get a list of their own (all of them when not
   * given); `records`: how many records its instances are in, where known, so the
   * whole-record list is allocated once rather than doubled up to its length.
   */
  constructor(
    private readonly byColumnKept?: readonly boolean[],
    records?: number,
  ) {
    this.whole = new PostingsBuilder(records);
  }

  /** One instance in record `doc`, column `column` (its place in `searchColumns`), weighted as bm25 weighs the column. */
  add(doc: number, column: number): void {
    const weight = weights[column] ?? 1;
    this.whole.add(doc, weight);
    if (this.byColumnKept && !this.byColumnKept[column]) return;
    let builder = this.byColumn[column];
    if (!builder) {
      builder = this.byColumn[column] = new PostingsBuilder();
      this.columns.push(column);
    }
    builder.add(doc, weight);
  }

  /** The lists by `col`: `wholeRecord`, then each column's name. */
  build(): Map<string, TokenPostings> {
    const lists = new Map<string, TokenPostings>([[wholeRecord, this.whole.build()]]);
    for (const column of this.columns) lists.set(searchColumns[column]!, this.byColumn[column]!.build());
    return lists;
  }
}

/** By column's place in `searchColumns`: whether a token's lists count its instances there apart (token-columns.ts). */
const keptTokenColumns = searchColumns.map((column) => tokenColumns.includes(column));

/**
 * From a token's instances as (document, column, offset) triples in that order: its
 * postings over whole records and in each column that keeps them (token-columns.ts), each instance adding its column's
 * weight, and its positions, encoded and as flat arrays.
 */
export function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer; instances: DocumentInstances } {
  const count = triples.length / 3;
  const counts: number[] = [];
  const columns = new Int32Array(count);
  const offsets = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    if (i === 0 || triples[3 * i - 3] !== triples[3 * i]) counts.push(0);
    counts[counts.length - 1]!++;
    columns[i] = triples[3 * i + 1]!;
    offsets[i] = triples[3 * i + 2]!;
  }
  const lists = new ListsBuilder(keptTokenColumns, counts.length);
  for (let i = 0; i < count; i++) lists.add(triples[3 * i]!, columns[i]!);
  const instances = { counts: Uint32Array.from(counts), columns, offsets };
  return { lists: lists.build(), positions: encodePositions(instances), instances };
}

/**
 * Stored positions (a list and its tail, or a tail alone) with `added` documents after
 * them: the first part's full blocks are copied as they are, the rest (its last block, the
 * tail) decoded and encoded again with the new documents. Byte for byte what encoding every
 * document at once gives, but a write of new records does not decode and encode a common
 * word's megabytes of positions.
 */
export function appendedPositions(stored: readonly StoredPositions[], added: DocumentInstances): Buffer {
  const first = stored[0];
  const blocks = first ? Math.floor(first.docs / blockSize) : 0;
  const rest = joinedInstances(decodePositions(stored, blocks * blockSize), added);
  return encodePositions(rest, first && blocks > 0 ? { part: first, blocks } : undefined);
}
