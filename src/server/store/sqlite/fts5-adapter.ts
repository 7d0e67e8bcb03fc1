import type Database from 'better-sqlite3';
import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import { sqliteVarints } from '../../engine/postings/varint';
import { ftsTokenizer } from './schema';

/**
 * FTS5 as the store's tokenizer, in one place. The store keeps no FTS5 index: text is put
 * into FTS5 tables in the temp schema (writable even on a read-only connection) and read
 * back as tokens; a build, and a write's postings (postings-update.ts), ask FTS5 for the
 * tokens of each distinct piece of text only (token-runs.ts, indexer/text-instances.ts). Its shadow tables are FTS5's private format, not its
 * API, so the file format they were written for is checked before anything is read, and an
 * FTS5 that writes another fails loudly here instead of giving wrong scores elsewhere.
 */

/** The FTS5 file format these readers understand (the `version` row of `%_config`). */
export const fts5FormatVersion = 4;

/**
 * Positions store the column in the low four bits (postings.ts), and FTS5 numbers columns
 * in a byte; more search columns than this need a new positions encoding first.
 */
export const maxSearchColumns = 16;
if (searchColumns.length > maxSearchColumns) {
  throw new Error(`${searchColumns.length} search columns; the positions encoding holds at most ${maxSearchColumns}.`);
}

/** SQL giving the position in `searchColumns` of the column an fts5vocab instance row is in. */
const columnIndexSql = `CASE col ${searchColumns.map((column, index) => `WHEN '${column}' THEN ${index}`).join(' ')} END`;

/**
 * Tokens longer than this are not indexed, so a query for one finds nothing. A
 * token is a key in the postings, positions and their indexes, several copies of it each,
 * and a key too long for its B-tree page takes a page of its own per copy: a record of
 * 2,000-letter "words" made the store grow twelve times what the source sent. No word of
 * a natural language comes near this (Lucene's standard analyzer stops at 255).
 */
export const maxTokenChars = 100;

/** Bytes of pending index FTS5 holds in memory before it writes a segment: more means fewer, bigger merges. */
const hashSize = 64 * 1024 * 1024;

/** Creates `temp.<name>`, an FTS5 table of the search columns that tokenizes as the postings do; a contentless one keeps only the index, not the text. */
export function createTextIndex(db: Database.Database, name: string, { contentless = false } = {}): void {
  db.exec(
    `CREATE VIRTUAL TABLE temp.${name} USING fts5(${searchColumns.join(', ')}, tokenize='${ftsTokenizer}'${contentless ? `, content=''` : ''})`,
  );
  // FTS5 takes configuration values as literals only, not as bound parameters.
  db.exec(`INSERT INTO temp.${name} (${name}, rank) VALUES ('hashsize', ${hashSize})`);
}

/** Indexes the text of records (an id, then each column's text) whole, in a new contentless `temp.<name>`. */
export function indexText(db: Database.Database, name: string, texts: Iterable<[number, Readonly<Record<SearchColumn, string>>]>): void {
  createTextIndex(db, name, { contentless: true });
  const insert = db.prepare(
    `INSERT INTO temp.${name} (rowid, ${searchColumns.join(', ')}) VALUES (?, ${searchColumns.map(() => '?').join(', ')})`,
  );
  for (const [id, text] of texts) insert.run(id, ...searchColumns.map((column) => text[column]));
}

/** Throws unless `temp.<fts>` is written in the format this file reads. */
export function assertFts5Format(db: Database.Database, fts: string): void {
  const version = db.prepare(`SELECT v FROM temp.${fts}_config WHERE k = 'version'`).pluck().get() as number | undefined;
  if (version !== fts5FormatVersion) {
    throw new Error(`${fts} is in FTS5 format ${version ?? 'unknown'}; this store reads format ${fts5FormatVersion}.`);
  }
}

/** A document's token count over all columns, from its row of `%_docsize` (a varint per column). */
const tokenCount = (sizes: Buffer) => sqliteVarints(sizes).reduce((sum, size) => sum + size, 0);

/**
 * The token count (all columns) of every document, indexed by id, and bm25's statistics
 * over them as FTS5 keeps them: the number of documents and their tokens in all. Read
 * from the document sizes, which FTS5 writes with each document; its averages record waits
 * for the index to be flushed.
 */
export function documentLengths(db: Database.Database, fts: string): { lengths: Uint32Array; rows: number; tokens: number } {
  assertFts5Format(db, fts);
  const maxId = (db.prepare(`SELECT max(id) FROM temp.${fts}_docsize`).pluck().get() as number | null) ?? 0;
  const lengths = new Uint32Array(maxId + 1);
  let rows = 0;
  let tokens = 0;
  for (const [id, sizes] of db.prepare(`SELECT id, sz FROM temp.${fts}_docsize`).raw().iterate() as Iterable<[number, Buffer]>) {
    const length = tokenCount(sizes);
    lengths[id] = length;
    rows++;
    tokens += length;
  }
  return { lengths, rows, tokens };
}

/**
 * Calls `each` with every token of `temp.<fts>` and its instances, as
 * "doc column offset doc column offset ..." with the column as its position in
 * `searchColumns`. SQLite joins a token's instances into one string, which costs far less
 * than a JavaScript row per instance (at 100,000 records: 9 s against 23 s for 23 million).
 */
export function eachTokenInstances(db: Database.Database, fts: string, each: (token: string, instances: string) => void): void {
  assertFts5Format(db, fts);
  const vocabulary = `${fts}_vocabulary`;
  const instances = `${fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocabulary} USING fts5vocab(temp, ${fts}, 'row')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${instances} USING fts5vocab(temp, ${fts}, 'instance')`);
  try {
    const terms = db.prepare(`SELECT term FROM temp.${vocabulary} WHERE length(term) <= ${maxTokenChars}`).pluck().all() as string[];
    const instancesOf = db
      .prepare(`SELECT group_concat(doc || ' ' || ${columnIndexSql} || ' ' || "offset", ' ') FROM temp.${instances} WHERE term = ?`)
      .pluck();
    for (const term of terms) {
      const text = instancesOf.get(term) as string | null;
      if (text) each(term, text);
    }
  } finally {
    db.exec(`DROP TABLE temp.${vocabulary}; DROP TABLE temp.${instances};`);
  }
}

/** A tokenizer with the postings' own: a scratch FTS5 table shows how FTS5 splits text. */
export function scratchTokenizer(db: Database.Database, name: string): (text: string) => string[] {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(text, tokenize='${ftsTokenizer}')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name}_tokens USING fts5vocab(temp, ${name}, 'instance')`);
  const put = db.prepare(`INSERT INTO temp.${name} (rowid, text) VALUES (1, ?)`);
  const tokens = db.prepare(`SELECT term FROM temp.${name}_tokens ORDER BY offset`).pluck();
  const clear = db.prepare(`DELETE FROM temp.${name}`);
  return (text) => {
    put.run(text);
    try {
      return tokens.all() as string[];
    } finally {
      clear.run();
    }
  };
}

/**
 * FTS5's tokens of texts tokenized together through a scratch FTS5 table named `name` (with
 * no content kept), text i's as element i: a batch in one statement, as a JSON array, where
 * a statement run per text cost more than FTS5's tokenizing.
 */
export function batchTokenizer(db: Database.Database, name: string): (texts: readonly string[]) => string[][] {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(text, tokenize='${ftsTokenizer}', content='')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name}_instances USING fts5vocab(temp, ${name}, 'instance')`);
  const insert = db.prepare(`INSERT INTO temp.${name} (rowid, text) SELECT key + 1, value FROM json_each(?)`);
  const read = db.prepare(`SELECT doc, "offset", term FROM temp.${name}_instances`).raw();
  const clear = db.prepare(`INSERT INTO temp.${name} (${name}) VALUES ('delete-all')`);
  return (texts) => {
    const found: string[][] = texts.map(() => []);
    insert.run(JSON.stringify(texts));
    for (const [doc, offset, term] of read.iterate() as Iterable<[number, number, string]>) found[doc - 1]![offset] = term;
    clear.run();
    return found;
  };
}
