import type Database from 'better-sqlite3';
import { searchColumns, type Deployment } from '../../../../deployments/schema';
import { StoredPositions, wholeRecord } from '../../../engine/postings/positions';
import { tablesOf } from '../schema';
import type { ListRows } from './postings-tails';

/**
 * Where the tokens' postings and positions are stored: each token has a number in the term
 * dictionary (`<p>_terms`, the token's text kept once, in one B-tree), and its lists are rows
 * of integer-keyed tables, its number and the list's scope, as Lucene's and tantivy's term
 * dictionaries point into their postings. Keyed by (col, term) text, a list's key was kept
 * twice, in the row and in the index SQLite makes for a primary key, and once per column.
 */

/** A token's lists: over whole records, then in each of `searchColumns`. */
export const termScopes = 1 + searchColumns.length;

/** A list's scope among its token's rows: 0 over whole records (`col` ''), else its column's place in `searchColumns` plus one. */
const scopeOf = (col: string): number => (col === wholeRecord ? 0 : 1 + searchColumns.indexOf(col as (typeof searchColumns)[number]));

/** The row of token number `id`'s list in `col` (its positions' row is the whole-record list's). */
export const termRow = (id: number, col: string): number => id * termScopes + scopeOf(col);

/** The `col` of a token's list from its row. */
export const termColumnOf = (row: number): string => (row % termScopes === 0 ? wholeRecord : searchColumns[(row % termScopes) - 1]!);

/** A token's number from one of its rows. */
export const termOfRow = (row: number): number => Math.floor(row / termScopes);

/** A token's number in the term dictionary, or undefined where it has no lists. */
export function termIdReader(db: Database.Database, deployment: Deployment): (term: string) => number | undefined {
  const read = db.prepare(`SELECT id FROM ${tablesOf(deployment).terms} WHERE term = ?`).pluck();
  return (term) => read.get(term) as number | undefined;
}

/**
 * The tokens' postings and their tail, by a token's text and col, for a write: a token new to
 * the store is numbered when its first list is written (after every number in use), and
 * leaves the dictionary when its whole-record list is deleted (its column lists and
 * positions go with it: no record holds it any more).
 */
export class TermRows implements ListRows {
  private readonly readId: (term: string) => number | undefined;
  /** Numbers looked up or given in this write, kept after a token leaves the dictionary for its other lists' deletes. */
  private readonly ids = new Map<string, number>();
  private next: number;
  private readonly statements;

  constructor(db: Database.Database, deployment: Deployment) {
    const t = tablesOf(deployment);
    this.readId = termIdReader(db, deployment);
    // Numbers of tokens no longer held may be given again: none of their rows are left.
    const last = db.prepare(`SELECT max(id) FROM ${t.postings}`).pluck().get() as number | null;
    this.next = last === null ? 0 : termOfRow(last) + 1;
    this.statements = {
      rows: db
        .prepare(
          `SELECT whole.id, whole.docs, tail.data FROM ${t.postings} AS whole LEFT JOIN ${t.postingsTail} AS tail ON tail.id = whole.id
             WHERE whole.id BETWEEN ? AND ?`,
        )
        .raw(),
      whole: db.prepare(`SELECT data FROM ${t.postings} WHERE id = ?`).pluck(),
      writeWhole: db.prepare(`INSERT OR REPLACE INTO ${t.postings} (id, docs, data) VALUES (?, ?, ?)`),
      writeTail: db.prepare(`INSERT OR REPLACE INTO ${t.postingsTail} (id, docs, data) VALUES (?, ?, ?)`),
      deleteWhole: db.prepare(`DELETE FROM ${t.postings} WHERE id = ?`),
      deleteTail: db.prepare(`DELETE FROM ${t.postingsTail} WHERE id = ?`),
      addTerm: db.prepare(`INSERT INTO ${t.terms} (term, id) VALUES (?, ?)`),
      deleteTerm: db.prepare(`DELETE FROM ${t.terms} WHERE term = ?`),
    };
  }

  /** The token's number, if it has one. */
  idOf(term: string): number | undefined {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.readId(term);
      if (id !== undefined) this.ids.set(term, id);
    }
    return id;
  }

  private numbered(term: string): number {
    let id = this.idOf(term);
    if (id === undefined) {
      this.ids.set(term, (id = this.next++));
      this.statements.addTerm.run(term, id);
    }
    return id;
  }

  rows(term: string): [string, number, Uint8Array | null][] {
    const id = this.idOf(term);
    if (id === undefined) return [];
    return (
      this.statements.rows.all(termRow(id, wholeRecord), termRow(id, wholeRecord) + termScopes - 1) as [number, number, Uint8Array | null][]
    ).map(([row, docs, data]) => [termColumnOf(row), docs, data]);
  }

  whole(term: string, col: string): Uint8Array {
    return this.statements.whole.get(termRow(this.idOf(term)!, col)) as Uint8Array;
  }

  writeWhole(term: string, col: string, docs: number, data: Buffer): void {
    this.statements.writeWhole.run(termRow(this.numbered(term), col), docs, data);
  }

  writeTail(term: string, col: string, docs: number, data: Buffer): void {
    this.statements.writeTail.run(termRow(this.idOf(term)!, col), docs, data);
  }

  deleteWhole(term: string, col: string): void {
    this.statements.deleteWhole.run(termRow(this.idOf(term)!, col));
    if (col === wholeRecord) this.statements.deleteTerm.run(term);
  }

  deleteTail(term: string, col: string): void {
    this.statements.deleteTail.run(termRow(this.idOf(term)!, col));
  }
}

/** The tokens in at least `docs` records, in the dictionary's order. */
export function tokensInAtLeast(db: Database.Database, deployment: Deployment, docs: number): string[] {
  const t = tablesOf(deployment);
  return db
    .prepare(
      `SELECT term FROM ${t.terms} JOIN ${t.postings} ON ${t.postings}.id = ${t.terms}.id * ${termScopes} WHERE docs >= ? ORDER BY term`,
    )
    .pluck()
    .all(docs) as string[];
}

/** A stored token's whole-record list and its positions, written whole (tails not read). */
export function wholeTokenReader(db: Database.Database, deployment: Deployment): (term: string) => { list: Buffer; positions: Buffer } {
  const t = tablesOf(deployment);
  const termId = termIdReader(db, deployment);
  const list = db.prepare(`SELECT data FROM ${t.postings} WHERE id = ?`).pluck();
  const positions = db.prepare(`SELECT data FROM ${t.positions} WHERE id = ?`).pluck();
  return (term) => {
    const id = termId(term)!;
    return { list: list.get(termRow(id, wholeRecord)) as Buffer, positions: positions.get(id) as Buffer };
  };
}

/** A token's positions as stored in a table (`<p>_positions` or its tail), by the token's number. */
export function positionsRows(db: Database.Database, table: string) {
  const read = db.prepare(`SELECT data FROM ${table} WHERE id = ?`).pluck();
  const write = db.prepare(`INSERT OR REPLACE INTO ${table} (id, data) VALUES (?, ?)`);
  const remove = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  return {
    /** None, or one part. */
    read: (id: number): StoredPositions[] => {
      const data = read.get(id) as Uint8Array | undefined;
      return data ? [new StoredPositions(data)] : [];
    },
    write: (id: number, data: Buffer) => write.run(id, data),
    remove: (id: number) => remove.run(id),
  };
}
