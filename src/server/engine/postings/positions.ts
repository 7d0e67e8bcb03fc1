import { searchColumns } from '../../../deployments/schema';
import { columnWeights } from '../../../deployments/search-model';
import { VarintWriter } from './varint';
import type { TokenPostings } from './block-postings';

/**
 * Positions, writer and reader together: per document of a token's postings, in their
 * order, the number of its instances and then each as offset × 16 + column (the column's
 * place in `searchColumns`), the offset relative to the previous instance in the same
 * column. Phrases are matched from them (query/phrase.ts, query/prefix-phrase.ts).
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

/** One token's instances in one document, in (column, offset) order; arrays grow as needed. */
export interface Instances {
  columns: Int32Array;
  offsets: Int32Array;
  length: number;
}

export const noInstances = (): Instances => ({ columns: new Int32Array(16), offsets: new Int32Array(16), length: 0 });

/**
 * Reads the instances of the document whose positions start at `at` into `into`, and
 * returns where the next document's start. (Inlined varints: a reader object per document
 * cost more than the decoding itself.)
 */
export function readInstances(data: Uint8Array, at: number, into: Instances): number {
  let byte = data[at++]!;
  let n = byte & 0x7f;
  for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
    byte = data[at++]!;
    n += (byte & 0x7f) * scale;
  }
  if (into.columns.length < n) {
    into.columns = new Int32Array(n);
    into.offsets = new Int32Array(n);
  }
  let column = -1;
  let offset = 0;
  for (let i = 0; i < n; i++) {
    byte = data[at++]!;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = data[at++]!;
      value += (byte & 0x7f) * scale;
    }
    const next = value % 16;
    offset = (next === column ? offset : 0) + Math.floor(value / 16);
    column = next;
    into.columns[i] = column;
    into.offsets[i] = offset;
  }
  into.length = n;
  return at;
}

/** Where the document after the one whose positions start at `at` starts. */
export function skipInstances(data: Uint8Array, at: number): number {
  let instances = 0;
  let scale = 1;
  let byte: number;
  do {
    byte = data[at++]!;
    instances += (byte & 0x7f) * scale;
    scale *= 0x80;
  } while (byte >= 0x80);
  // The instances themselves are skipped, not decoded: a varint ends at a byte below 0x80.
  for (let k = 0; k < instances; k++) while (data[at++]! >= 0x80);
  return at;
}

/**
 * A token's positions in the order of its whole-record list, in the parts that list is
 * stored in (joined-postings.ts): part k holds the documents from the list's `starts[k]`th on.
 */
export interface PositionParts {
  readonly parts: readonly Uint8Array[];
  readonly starts: readonly number[];
}

/** Walks a token's positions forward, document by document, across its parts. */
export class PositionsWalk {
  /** The document (its place in the token's list) whose positions come next. */
  doc = 0;
  private part = 0;
  private data: Uint8Array;
  private at = 0;
  private partEnd: number;

  constructor(private readonly positions: PositionParts) {
    this.data = positions.parts[0]!;
    this.partEnd = positions.starts[1] ?? Infinity;
    this.settle();
  }

  /** Passes over the next document's positions. */
  skip(): void {
    this.skipTo(this.doc + 1);
  }

  /** Passes over the documents before the `doc`th, in one loop (a call per document cost more than the skipping). */
  skipTo(doc: number): void {
    while (this.doc < doc) {
      const stop = Math.min(doc, this.partEnd);
      const data = this.data;
      let at = this.at;
      for (let d = this.doc; d < stop; d++) at = skipInstances(data, at);
      this.at = at;
      this.doc = stop;
      this.settle();
    }
  }

  /** Reads the next document's positions into `into`. */
  read(into: Instances): void {
    this.at = readInstances(this.data, this.at, into);
    this.doc++;
    this.settle();
  }

  /** Moves to the part that holds the next document, once the current one is done. */
  private settle(): void {
    while (this.doc >= this.partEnd) {
      this.data = this.positions.parts[++this.part] ?? new Uint8Array(0);
      this.at = 0;
      this.partEnd = this.positions.starts[this.part + 1] ?? Infinity;
    }
  }
}

/** Growing lists of documents and counts, one document at a time in ascending order. */
class PostingsBuilder {
  readonly ids: number[] = [];
  readonly counts: number[] = [];

  add(doc: number, weight: number): void {
    const last = this.ids.length - 1;
    if (last >= 0 && this.ids[last] === doc) this.counts[last]! += weight;
    else {
      this.ids.push(doc);
      this.counts.push(weight);
    }
  }

  build(): TokenPostings {
    return { ids: Int32Array.from(this.ids), counts: Uint32Array.from(this.counts) };
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
 * weight, and its positions.
 */
export function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer } {
  const lists = new ListsBuilder();
  const positions = new VarintWriter();
  const count = triples.length / 3;
  for (let i = 0; i < count;) {
    const doc = triples[3 * i]!;
    let end = i;
    while (end < count && triples[3 * end] === doc) end++;
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
  return { lists: lists.build(), positions: positions.toBuffer() };
}
