import { searchColumns } from '../../../deployments/schema';
import { columnWeights } from '../../../deployments/search-model';
import { VarintCursor, VarintWriter } from './varint';
import type { TokenPostings } from './block-postings';
import { doubled } from '../typed-arrays';

/**
 * Positions, writer and reader together: per document of a token's postings, in their
 * order, the number of its instances and then each as offset × 16 + column (the column's
 * place in `searchColumns`), the offset relative to the previous instance in the same
 * column. Phrases are matched from them (query/phrase.ts, query/prefix-phrase.ts).
 *
 * Beside them, a token's skips: where every `skipEvery`th document's positions start, as
 * LEB128 gaps. A phrase of a stopword and a rarer word reads the stopword's positions for
 * a few thousand of its million documents; the skips take its walk to each in a jump.
 */

/** bm25's weight of each column, by its position in `searchColumns`. */
export const weights = searchColumns.map((column) => columnWeights[column]);

/** The `col` of the postings of a token over whole records (the others name one column). */
export const wholeRecord = '';

/** Byte offsets of each document's part of a positions blob (the count, then that many varints), plus the end. */
export function documentBounds(data: Uint8Array, docs: number): Uint32Array {
  const bounds = new Uint32Array(docs + 1);
  let at = 0;
  for (let d = 0; d < docs; d++) {
    bounds[d] = at;
    at = skipInstances(data, at);
  }
  bounds[docs] = at;
  return bounds;
}

/** Documents between two skips: a walk decodes at most this many documents' counts to reach any one. */
export const skipEvery = 16;

/** Where documents 0, skipEvery, 2 × skipEvery, … of positions `data` start. */
export function positionSkips(data: Uint8Array): Uint32Array {
  const skips: number[] = [];
  for (let at = 0, d = 0; at < data.length; d++) {
    if (d % skipEvery === 0) skips.push(at);
    at = skipInstances(data, at);
  }
  return Uint32Array.from(skips);
}

/** Skips as stored: the gaps after the first, which is 0. */
export function encodeSkips(skips: ArrayLike<number>): Buffer {
  const out = new VarintWriter();
  for (let k = 1; k < skips.length; k++) out.write(skips[k]! - skips[k - 1]!);
  return out.toBuffer();
}

/** Skips as the walk reads them, from their stored gaps. */
export function decodeSkips(stored: Uint8Array): Uint32Array {
  const skips = new Uint32Array(stored.length + 1); // a gap takes a byte at least
  const read = new VarintCursor(stored);
  let n = 1;
  for (; read.at < stored.length; n++) skips[n] = skips[n - 1]! + read.read();
  return skips.subarray(0, n);
}

/** One token's instances in one document, in (column, offset) order; arrays grow as needed. */
export interface Instances {
  columns: Int32Array;
  offsets: Int32Array;
  length: number;
}

export const noInstances = (): Instances => ({ columns: new Int32Array(16), offsets: new Int32Array(16), length: 0 });

/**
 * Reads a positions blob document by document: each document's number of instances, then
 * each instance as (column, offset). The one decoder of the layout, for walks that read a
 * document whole (readInstances) and those that stop early (query/prefix-phrase.ts).
 */
export class InstancesCursor {
  /** The last instance read: its column's place in `searchColumns`, and its offset there. */
  column = -1;
  offset = 0;
  private readonly varints = new VarintCursor();

  /** Where the cursor is: a document's start, or within its instances. */
  get at(): number {
    return this.varints.at;
  }

  /** Points the cursor at byte `at` of `data`, which must be a document's start. */
  seek(data: Uint8Array, at: number): void {
    this.varints.seek(data, at);
  }

  /** Starts the next document: returns its number of instances. */
  document(): number {
    this.column = -1;
    this.offset = 0;
    return this.varints.read();
  }

  /** Reads the document's next instance into `column` and `offset`. */
  instance(): void {
    const value = this.varints.read();
    const column = value % 16;
    this.offset = (column === this.column ? this.offset : 0) + Math.floor(value / 16);
    this.column = column;
  }

  /** Passes over `n` of the document's instances without decoding them. */
  skip(n: number): void {
    this.varints.skip(n);
  }
}

const cursor = new InstancesCursor();

/** Reads the instances of the document whose positions start at `at` into `into`, and returns where the next document's start. */
export function readInstances(data: Uint8Array, at: number, into: Instances): number {
  cursor.seek(data, at);
  const n = cursor.document();
  if (into.columns.length < n) {
    into.columns = new Int32Array(n);
    into.offsets = new Int32Array(n);
  }
  for (let i = 0; i < n; i++) {
    cursor.instance();
    into.columns[i] = cursor.column;
    into.offsets[i] = cursor.offset;
  }
  into.length = n;
  return cursor.at;
}

/** Where the document after the one whose positions start at `at` starts. */
export function skipInstances(data: Uint8Array, at: number): number {
  cursor.seek(data, at);
  cursor.skip(cursor.document());
  return cursor.at;
}

/** One stored run of positions and its skips. */
export interface PositionsPart {
  readonly data: Uint8Array;
  readonly skips: Uint32Array;
}

/**
 * A token's positions in the order of its whole-record list, in the parts that list is
 * stored in (joined-postings.ts): part k holds the documents from the list's `starts[k]`th on.
 */
export interface PositionParts {
  readonly parts: readonly PositionsPart[];
  readonly starts: readonly number[];
}

const noPart: PositionsPart = { data: new Uint8Array(0), skips: new Uint32Array(0) };

/** Walks a token's positions forward, document by document, across its parts. */
export class PositionsWalk {
  /** The document (its place in the token's list) whose positions come next. */
  doc = 0;
  private part = 0;
  private current: PositionsPart;
  private at = 0;
  private partStart = 0;
  private partEnd: number;

  constructor(private readonly positions: PositionParts) {
    this.current = positions.parts[0] ?? noPart;
    this.partEnd = positions.starts[1] ?? Infinity;
    this.settle();
  }

  /** Passes over the next document's positions. */
  skip(): void {
    this.skipTo(this.doc + 1);
  }

  /** Passes over the documents before the `doc`th: a jump to the last skip before it, then one loop. */
  skipTo(doc: number): void {
    while (this.doc < doc) {
      const stop = Math.min(doc, this.partEnd);
      const { data, skips } = this.current;
      const k = Math.floor((stop - this.partStart) / skipEvery);
      let d = this.doc;
      let at = this.at;
      if (this.partStart + k * skipEvery > d && k < skips.length) {
        d = this.partStart + k * skipEvery;
        at = skips[k]!;
      }
      for (; d < stop; d++) at = skipInstances(data, at);
      this.at = at;
      this.doc = stop;
      this.settle();
    }
  }

  /** Reads the next document's positions into `into`. */
  read(into: Instances): void {
    this.at = readInstances(this.current.data, this.at, into);
    this.doc++;
    this.settle();
  }

  /** Moves to the part that holds the next document, once the current one is done. */
  private settle(): void {
    while (this.doc >= this.partEnd) {
      this.current = this.positions.parts[++this.part] ?? noPart;
      this.at = 0;
      this.partStart = this.partEnd;
      this.partEnd = this.positions.starts[this.part + 1] ?? Infinity;
    }
  }
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
 * weight, and its positions with their skips.
 */
export function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer; skips: Buffer } {
  const lists = new ListsBuilder();
  const positions = new VarintWriter();
  const skips: number[] = [];
  const count = triples.length / 3;
  for (let i = 0, docs = 0; i < count; docs++) {
    const doc = triples[3 * i]!;
    let end = i;
    while (end < count && triples[3 * end] === doc) end++;
    if (docs % skipEvery === 0) skips.push(positions.length);
    positions.write(end - i);
    let previousColumn = -1;
    let previousOffset = 0;
    for (; i < end; i++) {
      const column = triples[3 * i + 1]!;
      const offset = triples[3 * i + 2]!;
      lists.add(doc, column);
      positions.write((column === previousColumn ? offset - previousOffset : offset) * 16 + column);
      previousColumn = column;
      previousOffset = offset;
    }
  }
  return { lists: lists.build(), positions: positions.toBuffer(), skips: encodeSkips(skips) };
}
