import { searchColumns } from '../../../deployments/schema';
import { columnWeights } from '../../../deployments/search-model';
import { VarintCursor, VarintWriter } from './varint';
import { bitsAt, bitsBytes, bitWidth, packBits } from './bit-packing';
import { blockSize, type TokenPostings } from './block-postings';
import { doubled } from '../typed-arrays';

/**
 * The positions codec, writer and reader together: a token's instances in each document of
 * its whole-record list, in the list's order, each as (column, offset), the column its
 * place in `searchColumns`. Phrases are matched from them (query/phrase.ts,
 * query/prefix-phrase.ts). The documents are cut into blocks of `blockSize`, as the
 * postings are:
 *
 *   header   format version, documents
 *   per block (all together, before any block's data, so a reader finds every block unread):
 *            its instances, then one number for its least column and the bit widths of its
 *            three runs (blockWidths)
 *   per block: three runs, each bit-packed at its own width to the byte (bit-packing.ts):
 *            each document's instances less one; each instance's column less the block's
 *            least; each instance's offset, the first in its column as it is and the next
 *            ones in that column as the gap from the one before
 *
 * A block's runs start at byte lengths that follow from its widths and counts, and a value
 * of a run is read where it stands, so a walk reads one document's instances without
 * decoding the documents before it: the counts of its block, summed, say where they are.
 * Most documents hold a token once, in one column, so the counts pack at width 0 and a
 * block whose instances are all in one column (a title word's) packs its columns at 0 too.
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
export const positionsFormat = 1;

/** Columns' places stay below this (fts5-adapter.ts checks), so a block's least column shares a header number with its widths. */
const columnLimit = 16;

/** A block's widths and least column as one header number, and back. */
const blockWidths = (least: number, countWidth: number, columnWidth: number, offsetWidth: number): number =>
  least + columnLimit * (columnWidth + 5 * (offsetWidth + 33 * countWidth));

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

/** Encodes a token's instances, one entry of `counts` per document of its whole-record list. */
export function encodePositions({ counts, columns, offsets }: DocumentInstances): Buffer {
  header.clear();
  body.clear();
  header.write(positionsFormat);
  header.write(counts.length);
  for (let start = 0, first = 0; start < counts.length; start += blockSize) {
    const end = Math.min(counts.length, start + blockSize);
    let n = 0;
    for (let d = start; d < end; d++) n += counts[d]!;
    if (values.length < Math.max(n, blockSize)) values = new Uint32Array(Math.max(n, blockSize));
    for (let d = start; d < end; d++) values[d - start] = counts[d]! - 1;
    const countWidth = packRun(end - start);
    let least = columnLimit;
    for (let i = first; i < first + n; i++) least = Math.min(least, columns[i]!);
    for (let i = first; i < first + n; i++) values[i - first] = columns[i]! - least;
    const columnWidth = packRun(n);
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
    header.write(blockWidths(least, countWidth, columnWidth, offsetWidth));
    first += n;
  }
  return Buffer.concat([header.toBuffer(), body.toBuffer()]);
}

/** A stored token's positions: its block table read up front, each document's instances read where they stand. */
export class StoredPositions {
  readonly docs: number;
  readonly blocks: number;
  /** Each block's instances, where its runs start, their widths and its least column. */
  private readonly instances: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly widths: Uint32Array;

  constructor(readonly data: Uint8Array) {
    const read = new VarintCursor(data);
    const format = read.read();
    if (format !== positionsFormat) throw new Error(`Positions in format ${format}; this engine reads format ${positionsFormat}.`);
    this.docs = read.read();
    this.blocks = Math.ceil(this.docs / blockSize);
    this.instances = new Uint32Array(this.blocks);
    this.starts = new Uint32Array(this.blocks);
    this.widths = new Uint32Array(this.blocks);
    for (let b = 0; b < this.blocks; b++) {
      this.instances[b] = read.read();
      this.widths[b] = read.read();
    }
    for (let b = 0, at = read.at; b < this.blocks; b++) {
      this.starts[b] = at;
      const { countWidth, columnWidth, offsetWidth } = this.widthsOf(b);
      at += bitsBytes(this.size(b), countWidth) + bitsBytes(this.instances[b]!, columnWidth) + bitsBytes(this.instances[b]!, offsetWidth);
    }
  }

  /** How many documents block b holds. */
  size(b: number): number {
    return Math.min(blockSize, this.docs - b * blockSize);
  }

  /** Block b's widths and least column, and where its runs start. */
  widthsOf(b: number) {
    let rest = this.widths[b]!;
    const least = rest % columnLimit;
    rest = (rest - least) / columnLimit;
    const columnWidth = rest % 5;
    rest = (rest - columnWidth) / 5;
    const offsetWidth = rest % 33;
    const countWidth = (rest - offsetWidth) / 33;
    const counts = this.starts[b]!;
    const columns = counts + bitsBytes(this.size(b), countWidth);
    const offsets = columns + bitsBytes(this.instances[b]!, columnWidth);
    return { least, countWidth, columnWidth, offsetWidth, counts, columns, offsets };
  }
}

/** A stored token's positions in the parts its whole-record list is stored in (joined-postings.ts): part k holds the documents from the list's `starts[k]`th on. */
export interface PositionParts {
  readonly parts: readonly StoredPositions[];
  readonly starts: readonly number[];
}

const noPart = new StoredPositions(Buffer.from([positionsFormat, 0]));

/**
 * Walks a token's positions forward, document by document, across its parts. Entering a
 * block decodes its documents' counts, from which any document's instances are read where
 * they stand: passing over documents costs nothing, so a phrase that reads a stopword's
 * positions in a few of its million documents jumps to each.
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
  /** The block entered last (of the current part), its part's data, and where each of its documents' instances start. */
  private block = -1;
  private data: Uint8Array = noPart.data;
  private readonly firsts = new Uint32Array(blockSize + 1);
  private least = 0;
  private columnWidth = 0;
  private offsetWidth = 0;
  private columnsAt = 0;
  private offsetsAt = 0;
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
    this.next = this.firsts[j]!;
    this.end = this.firsts[j + 1]!;
    this.column = -1;
    this.offset = 0;
    this.doc++;
    this.settle();
    return this.end - this.next;
  }

  /** Reads the opened document's next instance into `column` and `offset`. */
  instance(): void {
    const data = this.data;
    const i = this.next++;
    const column = this.least + bitsAt(data, this.columnsAt, i, this.columnWidth);
    const value = bitsAt(data, this.offsetsAt, i, this.offsetWidth);
    this.offset = column === this.column ? this.offset + value : value;
    this.column = column;
  }

  /** Reads the next document's positions into `into`. */
  read(into: Instances): void {
    const n = this.document();
    if (into.columns.length < n) {
      into.columns = new Int32Array(n);
      into.offsets = new Int32Array(n);
    }
    for (let i = 0; i < n; i++) {
      this.instance();
      into.columns[i] = this.column;
      into.offsets[i] = this.offset;
    }
    into.length = n;
  }

  /** Enters block b of the current part: its documents' counts, summed into where each one's instances start. */
  private enter(b: number): void {
    const { data } = this.current;
    const { least, countWidth, columnWidth, offsetWidth, counts, columns, offsets } = this.current.widthsOf(b);
    const size = this.current.size(b);
    const firsts = this.firsts;
    for (let j = 0; j < size; j++) firsts[j + 1] = firsts[j]! + 1 + bitsAt(data, counts, j, countWidth);
    this.block = b;
    this.data = data;
    this.least = least;
    this.columnWidth = columnWidth;
    this.offsetWidth = offsetWidth;
    this.columnsAt = columns;
    this.offsetsAt = offsets;
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

/** Every document's instances of stored positions, in one set of flat arrays: what a write merges. */
export function decodePositions(...parts: readonly StoredPositions[]): DocumentInstances {
  const docs = parts.reduce((sum, part) => sum + part.docs, 0);
  const starts: number[] = [];
  for (let k = 0, start = 0; k < parts.length; start += parts[k++]!.docs) starts.push(start);
  const walk = new PositionsWalk({ parts, starts });
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
  private ids = new Int32Array(8);
  private counts = new Uint32Array(8);
  private length = 0;

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
  private readonly whole = new PostingsBuilder();
  /** By column's place in `searchColumns`, in the order first met. */
  private readonly byColumn: (PostingsBuilder | undefined)[] = [];
  private readonly columns: number[] = [];

  /** One instance in record `doc`, column `column` (its place in `searchColumns`), weighted as bm25 weighs the column. */
  add(doc: number, column: number): void {
    const weight = weights[column] ?? 1;
    this.whole.add(doc, weight);
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

/**
 * From a token's instances as (document, column, offset) triples in that order: its
 * postings over whole records and in each column, each instance adding its column's
 * weight, and its positions, encoded and as flat arrays.
 */
export function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer; instances: DocumentInstances } {
  const lists = new ListsBuilder();
  const count = triples.length / 3;
  const counts: number[] = [];
  const columns = new Int32Array(count);
  const offsets = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const doc = triples[3 * i]!;
    if (i === 0 || triples[3 * i - 3] !== doc) counts.push(0);
    counts[counts.length - 1]!++;
    columns[i] = triples[3 * i + 1]!;
    offsets[i] = triples[3 * i + 2]!;
    lists.add(doc, columns[i]!);
  }
  const instances = { counts: Uint32Array.from(counts), columns, offsets };
  return { lists: lists.build(), positions: encodePositions(instances), instances };
}
