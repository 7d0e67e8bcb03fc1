import type Database from 'better-sqlite3';
import { searchColumns } from '../../../deployments/schema';
import { sqliteVarints } from '../../engine/postings/varint';

/**
 * Everything that reads FTS5's own tables, in one place: the averages record and document
 * sizes in its shadow tables, and its token instances through fts5vocab. These are FTS5's
 * private format, not its API, so the file format they were written for is checked before
 * anything is read, and an FTS5 that writes another fails loudly here instead of giving
 * wrong scores elsewhere.
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

/** Throws unless `fts` (a table in `schema`) is written in the format this file reads. */
export function assertFts5Format(db: Database.Database, fts: string, schema = 'main'): void {
  const version = db.prepare(`SELECT v FROM ${schema}.${fts}_config WHERE k = 'version'`).pluck().get() as number | undefined;
  if (version !== fts5FormatVersion) {
    throw new Error(`${fts} is in FTS5 format ${version ?? 'unknown'}; this store reads format ${fts5FormatVersion}.`);
  }
}

/** bm25's statistics as FTS5 keeps them: the number of rows and the token total over all columns. */
export function indexTotals(db: Database.Database, fts: string): { rows: number; tokens: number } | undefined {
  assertFts5Format(db, fts);
  const averages = db.prepare(`SELECT block FROM ${fts}_data WHERE id = 1`).pluck().get() as Buffer | undefined;
  if (!averages) return undefined;
  // The averages record: the number of rows, then the token total of each column.
  const [rows = 0, ...columnTotals] = sqliteVarints(averages);
  return { rows, tokens: columnTotals.reduce((sum, total) => sum + total, 0) };
}

/** Token counts (all columns) of every document, indexed by id. */
export function allDocumentLengths(db: Database.Database, fts: string): Uint32Array {
  const maxId = (db.prepare(`SELECT max(id) FROM ${fts}_docsize`).pluck().get() as number | null) ?? 0;
  const lengths = new Uint32Array(maxId + 1);
  for (const [id, sizes] of db.prepare(`SELECT id, sz FROM ${fts}_docsize`).raw().iterate() as Iterable<[number, Buffer]>) {
    lengths[id] = sqliteVarints(sizes).reduce((sum, size) => sum + size, 0);
  }
  return lengths;
}

/** The token count (all columns) of one document; 0 when the index does not hold it. */
export function documentLengthReader(db: Database.Database, fts: string): (id: number) => number {
  const statement = db.prepare(`SELECT sz FROM ${fts}_docsize WHERE id = ?`).pluck();
  return (id) => {
    const sizes = statement.get(id) as Buffer | undefined;
    return sizes ? sqliteVarints(sizes).reduce((sum, size) => sum + size, 0) : 0;
  };
}

/**
 * Calls `each` with every token of `fts` (in `schema`) and its instances, as
 * "doc column offset doc column offset ..." with the column as its position in
 * `searchColumns`. SQLite joins a token's instances into one string, which costs far less
 * than a JavaScript row per instance (at 100,000 records: 9 s against 23 s for 23 million).
 */
export function eachTokenInstances(
  db: Database.Database,
  fts: string,
  each: (token: string, instances: string) => void,
  schema = 'main',
): void {
  assertFts5Format(db, fts, schema);
  const vocabulary = `${fts}_vocabulary`;
  const instances = `${fts}_instances`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocabulary} USING fts5vocab(${schema}, ${fts}, 'row')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${instances} USING fts5vocab(${schema}, ${fts}, 'instance')`);
  try {
    const terms = db.prepare(`SELECT term FROM temp.${vocabulary}`).pluck().all() as string[];
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

/**
 * A tokenizer with the index's own: a scratch FTS5 table in the temp schema (writable
 * even on a read-only connection) shows how FTS5 splits text.
 */
export function scratchTokenizer(db: Database.Database, name: string, tokenizer: string): (text: string) => string[] {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(text, tokenize='${tokenizer}')`);
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
