import type Database from 'better-sqlite3';
import { searchColumns, type Deployment, type SearchColumn } from '../../deployments/schema';
import { documentLengthReader, eachTokenInstances, indexTotals } from './sqlite/fts5-adapter';
import { decodePostings, encodePostings, StoredPostings, type TokenPostings } from '../engine/postings/block-postings';
import { documentBounds, postingsOf, wholeRecord } from '../engine/postings/positions';
import { pairListsOf, storedCommon, tripleInstances, type PairLists } from './pair-postings';
import { parseInstances } from './postings';
import { ftsTokenizer, tablesOf } from './sqlite/schema';

/**
 * Postings kept up to date write by write, in the writer's transaction: only the tokens of
 * the records a write adds or replaces are read and rewritten, so a write of a thousand
 * records into a million does not rebuild them all. The result is byte for byte what a
 * full rebuild (buildPostings) gives for the same common tokens, which only a full build
 * chooses (engine/postings/pairs.ts); postings.test.ts holds it to that.
 *
 * The written records are tokenized by a scratch FTS5 table with the index's tokenizer,
 * which gives the same tokens, columns and offsets as the index itself.
 */

export type ColumnTexts = Readonly<Record<SearchColumn, string>>;

/** A record's searchable text before a write (none for a new record) and after it. */
export interface TextChange {
  readonly before?: ColumnTexts;
  readonly after: ColumnTexts;
}

/** A stored postings list, decoded, without the records in `changed`. */
function kept(data: Uint8Array | undefined, changed: ChangedIds): TokenPostings {
  if (!data) return { ids: new Int32Array(0), counts: new Uint32Array(0) };
  const list = decodePostings(new StoredPostings(data));
  let n = 0;
  for (let i = 0; i < list.ids.length; i++) if (!changed.has(list.ids[i]!)) n++;
  if (n === list.ids.length) return list;
  const ids = new Int32Array(n);
  const counts = new Uint32Array(n);
  for (let i = 0, j = 0; i < list.ids.length; i++) {
    if (changed.has(list.ids[i]!)) continue;
    ids[j] = list.ids[i]!;
    counts[j++] = list.counts[i]!;
  }
  return { ids, counts };
}

/** Merges two lists in id order (no id is in both); `take(from, index)` is called for each entry in the merged order. */
function mergeOrder(a: Int32Array, b: Int32Array, take: (from: 0 | 1, index: number) => void): void {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) take(0, i++);
    else take(1, j++);
  }
}

function mergeLists(a: TokenPostings, b: TokenPostings): TokenPostings {
  const ids = new Int32Array(a.ids.length + b.ids.length);
  const counts = new Uint32Array(ids.length);
  let n = 0;
  mergeOrder(a.ids, b.ids, (from, index) => {
    const list = from === 0 ? a : b;
    ids[n] = list.ids[index]!;
    counts[n++] = list.counts[index]!;
  });
  return { ids, counts };
}

/** The records a write changed, for a lookup per stored posting (a Set costs several times more). */
class ChangedIds {
  private readonly marks: Uint8Array;

  constructor(ids: readonly number[]) {
    let max = 0;
    for (const id of ids) max = Math.max(max, id);
    this.marks = new Uint8Array(max + 1);
    for (const id of ids) this.marks[id] = 1;
  }

  has(id: number): boolean {
    return id < this.marks.length && this.marks[id] === 1;
  }
}

/**
 * A token's whole-record list and positions after the write: the stored ones without the
 * changed records, merged with the written records' own. Positions follow the whole-record
 * list document by document, so they are cut and joined at document boundaries, runs of
 * untouched documents copied as one piece.
 */
function mergeWhole(
  stored: Uint8Array | undefined,
  storedPositions: Uint8Array | undefined,
  changed: ChangedIds,
  added: TokenPostings,
  addedPositions: Uint8Array,
): { list: TokenPostings; positions: Buffer } {
  const all = stored ? decodePostings(new StoredPostings(stored)) : { ids: new Int32Array(0), counts: new Uint32Array(0) };
  const untouched = all.ids.every((id) => !changed.has(id));
  const last = all.ids.length ? all.ids[all.ids.length - 1]! : 0;
  // New records have ids above every stored one: their postings are appended as they are.
  if (untouched && (added.ids.length === 0 || added.ids[0]! > last)) {
    return { list: mergeLists(all, added), positions: Buffer.concat([storedPositions ?? Buffer.alloc(0), addedPositions]) };
  }
  const from = storedPositions ?? new Uint8Array(0);
  const storedBounds = documentBounds(from, all.ids.length);
  const addedBounds = documentBounds(addedPositions, added.ids.length);
  const n = all.ids.length;
  const ids = new Int32Array(n + added.ids.length);
  const counts = new Uint32Array(ids.length);
  const out = Buffer.allocUnsafe(from.length + addedPositions.length);
  let length = 0;
  let written = 0;
  let i = 0;
  let a = 0;
  while (i < n || a < added.ids.length) {
    if (a < added.ids.length && (i >= n || added.ids[a]! < all.ids[i]!)) {
      ids[length] = added.ids[a]!;
      counts[length++] = added.counts[a]!;
      out.set(addedPositions.subarray(addedBounds[a], addedBounds[a + 1]), written);
      written += addedBounds[a + 1]! - addedBounds[a]!;
      a++;
    } else if (changed.has(all.ids[i]!)) {
      i++;
    } else {
      // A run of kept documents up to the next changed or added one.
      let end = i;
      const stop = a < added.ids.length ? added.ids[a]! : Infinity;
      while (end < n && all.ids[end]! < stop && !changed.has(all.ids[end]!)) end++;
      ids.set(all.ids.subarray(i, end), length);
      counts.set(all.counts.subarray(i, end), length);
      length += end - i;
      out.set(from.subarray(storedBounds[i], storedBounds[end]), written);
      written += storedBounds[end]! - storedBounds[i]!;
      i = end;
    }
  }
  return { list: { ids: ids.slice(0, length), counts: counts.slice(0, length) }, positions: Buffer.from(out.subarray(0, written)) };
}

const noPostings: TokenPostings = { ids: new Int32Array(0), counts: new Uint32Array(0) };

/** The pair lists of the records (ids below `records`) whose token instances, as FTS5 lists them, are `instances`. */
function pairsOfRecords(common: readonly string[], instances: ReadonlyMap<string, string>, records: number): PairLists {
  const none = new Int32Array(0);
  const words = common.map((word) => {
    const text = instances.get(word);
    return tripleInstances(text ? parseInstances(text) : none);
  });
  return pairListsOf(common, words, records);
}

/** Applies writes' text changes to a deployment's postings; call it inside the write's transaction. */
export function postingsUpdater(db: Database.Database, deployment: Deployment): (changes: ReadonlyMap<number, TextChange>) => void {
  const t = tablesOf(deployment);
  const scratch = `${t.fts}_changes`;
  const columns = searchColumns.join(', ');
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${scratch} USING fts5(${columns}, tokenize='${ftsTokenizer}')`);
  const insertText = db.prepare(`INSERT INTO temp.${scratch} (rowid, ${columns}) VALUES (?, ${searchColumns.map(() => '?').join(', ')})`);
  const clearText = db.prepare(`DELETE FROM temp.${scratch}`);
  const readList = db.prepare(`SELECT data FROM ${t.postings} WHERE col = ? AND term = ?`).pluck();
  const writeList = db.prepare(`INSERT OR REPLACE INTO ${t.postings} (col, term, docs, data) VALUES (?, ?, ?, ?)`);
  const deleteList = db.prepare(`DELETE FROM ${t.postings} WHERE col = ? AND term = ?`);
  const readPositions = db.prepare(`SELECT data FROM ${t.positions} WHERE term = ?`).pluck();
  const writePositions = db.prepare(`INSERT OR REPLACE INTO ${t.positions} (term, data) VALUES (?, ?)`);
  const deletePositions = db.prepare(`DELETE FROM ${t.positions} WHERE term = ?`);
  const readPair = db.prepare(`SELECT col, data FROM ${t.pairs} WHERE pair = ?`).raw();
  const writePair = db.prepare(`INSERT OR REPLACE INTO ${t.pairs} (pair, col, docs, data) VALUES (?, ?, ?, ?)`);
  const deletePair = db.prepare(`DELETE FROM ${t.pairs} WHERE pair = ? AND col = ?`);
  const readLengths = db.prepare(`SELECT data FROM ${t.lengths}`).pluck();
  const writeLengths = db.prepare(`INSERT INTO ${t.lengths} (rows, tokens, data) VALUES (?, ?, ?)`);
  const clearLengths = db.prepare(`DELETE FROM ${t.lengths}`);
  const lengthOf = documentLengthReader(db, t.fts);

  /** Each token of `texts` with its instances, as FTS5 lists them. */
  const instancesOf = (texts: Iterable<[number, ColumnTexts]>) => {
    clearText.run();
    for (const [id, text] of texts) insertText.run(id, ...searchColumns.map((column) => text[column]));
    const instances = new Map<string, string>();
    eachTokenInstances(db, scratch, (term, text) => instances.set(term, text), 'temp');
    clearText.run();
    return instances;
  };

  return (changes) => {
    const changed = new ChangedIds([...changes.keys()]);
    // The lengths after the write first: each block of a list written below keeps its shortest record's.
    const storedLengths = readLengths.get() as Buffer;
    let maxId = storedLengths.length / 4 - 1;
    for (const id of changes.keys()) maxId = Math.max(maxId, id);
    const lengths = new Uint32Array(maxId + 1);
    lengths.set(new Uint32Array(new Uint8Array(storedLengths).buffer));
    for (const id of changes.keys()) lengths[id] = lengthOf(id);

    const replaced = instancesOf([...changes].flatMap(([id, { before }]) => (before ? [[id, before] as [number, ColumnTexts]] : [])));
    const written = instancesOf([...changes].map(([id, { after }]) => [id, after] as [number, ColumnTexts]));
    const touched = new Set([...replaced.keys(), ...written.keys()]);

    for (const term of touched) {
      const instances = written.get(term);
      const added = instances ? postingsOf(parseInstances(instances)) : undefined;
      const { list, positions } = mergeWhole(
        readList.get(wholeRecord, term) as Buffer | undefined,
        readPositions.get(term) as Buffer | undefined,
        changed,
        added?.lists.get(wholeRecord) ?? noPostings,
        added?.positions ?? Buffer.alloc(0),
      );
      if (list.ids.length === 0) {
        for (const column of [wholeRecord, ...searchColumns]) deleteList.run(column, term);
        deletePositions.run(term);
        continue;
      }
      writeList.run(wholeRecord, term, list.ids.length, encodePostings(list, lengths));
      writePositions.run(term, positions);
      for (const column of searchColumns) {
        const stored = readList.get(column, term) as Buffer | undefined;
        const addedColumn = added?.lists.get(column);
        if (!stored && !addedColumn) continue;
        const merged = mergeLists(kept(stored, changed), addedColumn ?? noPostings);
        if (merged.ids.length === 0) deleteList.run(column, term);
        else writeList.run(column, term, merged.ids.length, encodePostings(merged, lengths));
      }
    }

    // The pairs of the stored common tokens in the records before and after the write.
    const common = storedCommon(db, deployment);
    const writtenPairs = pairsOfRecords(common, written, lengths.length);
    for (const pair of new Set([...pairsOfRecords(common, replaced, lengths.length).keys(), ...writtenPairs.keys()])) {
      const stored = new Map(readPair.all(pair) as [string, Buffer][]);
      const added = writtenPairs.get(pair);
      for (const column of new Set([...stored.keys(), ...(added?.keys() ?? [])])) {
        const merged = mergeLists(kept(stored.get(column), changed), added?.get(column) ?? noPostings);
        if (merged.ids.length === 0) deletePair.run(pair, column);
        else writePair.run(pair, column, merged.ids.length, encodePostings(merged, lengths));
      }
    }

    // Read after the lists: read before them, FTS5's totals record did not yet hold this write's tokens.
    const totals = indexTotals(db, t.fts)!;
    clearLengths.run();
    writeLengths.run(totals.rows, totals.tokens, Buffer.from(lengths.buffer));
  };
}
