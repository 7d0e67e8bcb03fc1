import type Database from 'better-sqlite3';
import { searchColumns, type Deployment } from '../../deployments/schema';
import { columnWeights } from '../../deployments/search-model';
import { tablesOf } from './sqlite/schema';
import { allDocumentLengths, eachTokenInstances, indexTotals } from './sqlite/fts5-adapter';
import { varintReader, VarintWriter } from './varint';

/**
 * Postings: for every token of a deployment's FTS5 index, the documents that hold it and
 * its count in each, weighted by column as bm25() weighs it, over whole records and per
 * column (for the parameters that search one column, like title=). Built after a write
 * (`buildPostings`), with each token's positions for phrases, they let the engine rank
 * word and phrase searches without walking FTS5's doclists: FTS5 spends ~0.5 µs a match
 * computing bm25, so ranking a word in 97% of a million records took 0.5–0.7 s there,
 * and takes 15–30 ms from the postings.
 *
 * The engine computes bm25 exactly as FTS5's bm25() does (same formula, same order of
 * floating-point operations, the logarithm from SQLite itself), so both paths give the
 * same scores to the last bit and the same order; engine.test.ts holds them to that.
 *
 * A write updates the postings of the tokens it touches in its own transaction
 * (postings-update.ts), so a database never holds postings older than its index; a bulk
 * load drops them and builds them once when the writer closes. Databases written before
 * postings existed have none until their next write.
 */

/** The documents that hold one token, ascending, and its weighted count in each. */
export interface TokenPostings {
  readonly ids: Int32Array;
  readonly counts: Uint32Array;
}

/** bm25's weight of each column, by its position in `searchColumns`. */
export const weights = searchColumns.map((column) => columnWeights[column]);

/** The `col` of the postings of a token over whole records (the others name one column). */
export const wholeRecord = '';

/** A token's postings as bytes: the number of documents, then (id gap, count) per document, as LEB128. */
export function encodePostings({ ids, counts }: TokenPostings): Buffer {
  const writer = new VarintWriter();
  writer.write(ids.length);
  let previous = 0;
  for (let i = 0; i < ids.length; i++) {
    writer.write(ids[i]! - previous);
    writer.write(counts[i]!);
    previous = ids[i]!;
  }
  return writer.toBuffer();
}

export function decodePostings(data: Uint8Array): TokenPostings {
  const read = varintReader(data);
  const length = read();
  const ids = new Int32Array(length);
  const counts = new Uint32Array(length);
  let id = 0;
  for (let i = 0; i < length; i++) {
    ids[i] = id += read();
    counts[i] = read();
  }
  return { ids, counts };
}

/**
 * Adds a token's counts into `countsById` (indexed by record id) without building its
 * lists; returns how many records had no count before. The other words of a search are
 * looked up by id this way, and a long list costs about a third as much as decoding it.
 */
export function addPostings(data: Uint8Array, countsById: Uint32Array): number {
  const read = varintReader(data);
  const length = read();
  let id = 0;
  let added = 0;
  for (let i = 0; i < length; i++) {
    id += read();
    if (countsById[id] === 0) added++;
    countsById[id]! += read();
  }
  return added;
}

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

/**
 * A token's instances as "doc column offset doc column offset ..." (the column as its
 * position in `searchColumns`), as fts5vocab lists them: by document, column, offset.
 * Should they come otherwise, they are sorted.
 */
export function parseInstances(text: string): Int32Array {
  const values: number[] = [];
  let value = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code === 32) {
      values.push(value);
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  const triples = Int32Array.from(values);
  const count = triples.length / 3;
  const before = (i: number, j: number) => {
    for (let k = 0; k < 3; k++) if (triples[3 * i + k] !== triples[3 * j + k]) return triples[3 * i + k]! < triples[3 * j + k]!;
    return false;
  };
  for (let i = 1; i < count; i++) {
    if (before(i, i - 1)) {
      const order = Array.from({ length: count }, (_, n) => n).sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
      return Int32Array.from(order.flatMap((n) => [triples[3 * n]!, triples[3 * n + 1]!, triples[3 * n + 2]!]));
    }
  }
  return triples;
}

/**
 * From a token's instances (parseInstances): its postings over whole records and in each
 * column, each instance adding its column's weight; and its positions, which phrase
 * searches need: per document, in the postings' order, the number of instances and then
 * each as offset × 16 + column, the offset relative to the previous one in the same
 * column.
 */
export function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer } {
  const whole = new PostingsBuilder();
  const byColumn = new Map<number, PostingsBuilder>();
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
      const weight = weights[column] ?? 1;
      whole.add(doc, weight);
      (byColumn.get(column) ?? byColumn.set(column, new PostingsBuilder()).get(column)!).add(doc, weight);
      positions.write((column === previousColumn ? offset - previousOffset : offset) * 16 + column);
      previousColumn = column;
      previousOffset = offset;
    }
  }
  const lists = new Map<string, TokenPostings>([[wholeRecord, whole.build()]]);
  for (const [column, builder] of byColumn) lists.set(searchColumns[column]!, builder.build());
  return { lists, positions: positions.toBuffer() };
}

/**
 * Rebuilds a deployment's postings from its FTS5 index, in the writer's transaction (a
 * bulk load into an empty deployment, or a database written before postings existed).
 */
export function buildPostings(db: Database.Database, deployment: Deployment): void {
  const t = tablesOf(deployment);
  dropPostings(db, deployment);
  const totals = indexTotals(db, t.fts);
  if (!totals) return; // nothing indexed yet
  const lengths = allDocumentLengths(db, t.fts);
  const insert = db.prepare(`INSERT INTO ${t.postings} (col, term, docs, data) VALUES (?, ?, ?, ?)`);
  const insertPositions = db.prepare(`INSERT INTO ${t.positions} (term, data) VALUES (?, ?)`);
  eachTokenInstances(db, t.fts, (term, text) => {
    const { lists, positions } = postingsOf(parseInstances(text));
    for (const [column, postings] of lists) insert.run(column, term, postings.ids.length, encodePostings(postings));
    insertPositions.run(term, positions);
  });
  db.prepare(`INSERT INTO ${t.lengths} (rows, tokens, data) VALUES (?, ?, ?)`).run(totals.rows, totals.tokens, Buffer.from(lengths.buffer));
}

/** Whether the deployment's postings are there to be updated (built, and not dropped by a bulk write). */
export function hasPostings(db: Database.Database, deployment: Deployment): boolean {
  return (
    db
      .prepare(`SELECT count(*) FROM ${tablesOf(deployment).lengths}`)
      .pluck()
      .get() !== 0
  );
}

/** Forgets a deployment's postings: its index is about to change. */
export function dropPostings(db: Database.Database, deployment: Deployment): void {
  const t = tablesOf(deployment);
  db.prepare(`DELETE FROM ${t.lengths}`).run();
  db.prepare(`DELETE FROM ${t.postings}`).run();
  db.prepare(`DELETE FROM ${t.positions}`).run();
}
