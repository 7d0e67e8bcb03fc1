import type Database from 'better-sqlite3';
import { searchColumns, type Deployment } from '../../deployments/schema';
import { columnWeights, tablesOf } from './schema';
import { sqliteVarints, varintReader, VarintWriter } from './varint';

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
 * A write to a deployment deletes its postings (the writer builds them again when it
 * closes), so a database never holds postings older than its index. Databases written
 * before postings existed have none, and every search there goes through FTS5.
 */

/** The documents that hold one token, ascending, and its weighted count in each. */
export interface TokenPostings {
  readonly ids: Int32Array;
  readonly counts: Uint32Array;
}

/** SQL giving the position in `searchColumns` of the column an fts5vocab instance row is in. */
const columnIndexSql = `CASE col ${searchColumns.map((column, index) => `WHEN '${column}' THEN ${index}`).join(' ')} END`;
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
function parseInstances(text: string): Int32Array {
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
function postingsOf(triples: Int32Array): { lists: Map<string, TokenPostings>; positions: Buffer } {
  const whole = new PostingsBuilder();
  const byColumn = new Map<number, PostingsBuilder>();
  const positions = new VarintWriter();
  const count = triples.length / 3;
  for (let i = 0; i < count; ) {
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
 * Rebuilds a deployment's postings from its FTS5 index, in the writer's transaction.
 * fts5vocab lists the index's tokens and each token's instances; SQLite joins a token's
 * instances into one string, which costs far less than a JavaScript row per instance
 * (at 100,000 records: 9 s against 23 s for the 23 million instances).
 */
export function buildPostings(db: Database.Database, deployment: Deployment): void {
  const t = tablesOf(deployment);
  dropPostings(db, deployment);
  const averages = db.prepare(`SELECT block FROM ${t.fts}_data WHERE id = 1`).pluck().get() as Buffer | undefined;
  if (!averages) return; // nothing indexed yet
  // The averages record: the number of rows, then the token total of each column.
  const [rows = 0, ...columnTotals] = sqliteVarints(averages);
  const tokens = columnTotals.reduce((sum, total) => sum + total, 0);

  const maxId = (db.prepare(`SELECT max(id) FROM ${t.fts}_docsize`).pluck().get() as number | null) ?? 0;
  const lengths = new Uint32Array(maxId + 1);
  for (const [id, sizes] of db.prepare(`SELECT id, sz FROM ${t.fts}_docsize`).raw().iterate() as Iterable<[number, Buffer]>) {
    lengths[id] = sqliteVarints(sizes).reduce((sum, size) => sum + size, 0);
  }

  const vocabulary = `${t.fts}_vocabulary`;
  const instances = `${t.fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocabulary} USING fts5vocab(main, ${t.fts}, 'row')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${instances} USING fts5vocab(main, ${t.fts}, 'instance')`);
  try {
    const terms = db.prepare(`SELECT term FROM temp.${vocabulary}`).pluck().all() as string[];
    const instancesOf = db
      .prepare(`SELECT group_concat(doc || ' ' || ${columnIndexSql} || ' ' || "offset", ' ') FROM temp.${instances} WHERE term = ?`)
      .pluck();
    const insert = db.prepare(`INSERT INTO ${t.postings} (col, term, docs, data) VALUES (?, ?, ?, ?)`);
    const insertPositions = db.prepare(`INSERT INTO ${t.positions} (term, data) VALUES (?, ?)`);
    for (const term of terms) {
      const text = instancesOf.get(term) as string | null;
      if (!text) continue;
      const { lists, positions } = postingsOf(parseInstances(text));
      for (const [column, postings] of lists) insert.run(column, term, postings.ids.length, encodePostings(postings));
      insertPositions.run(term, positions);
    }
    db.prepare(`INSERT INTO ${t.lengths} (rows, tokens, data) VALUES (?, ?, ?)`).run(rows, tokens, Buffer.from(lengths.buffer));
  } finally {
    db.exec(`DROP TABLE temp.${vocabulary}; DROP TABLE temp.${instances};`);
  }
}

/** Forgets a deployment's postings: its index is about to change. */
export function dropPostings(db: Database.Database, deployment: Deployment): void {
  const t = tablesOf(deployment);
  db.prepare(`DELETE FROM ${t.lengths}`).run();
  db.prepare(`DELETE FROM ${t.postings}`).run();
  db.prepare(`DELETE FROM ${t.positions}`).run();
}
