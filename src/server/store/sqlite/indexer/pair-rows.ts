import type Database from 'better-sqlite3';
import type { Deployment, SearchColumn } from '../../../../deployments/schema';
import { StoredPostings, type Postings } from '../../../engine/postings/block-postings';
import { JoinedPostings } from '../../../engine/postings/joined-postings';
import { pairColumnOf, pairRow, pairScope, pairScopes } from '../../../engine/postings/pairs';
import { wholeRecord } from '../../../engine/postings/positions';
import { tablesOf } from '../schema';
import type { ListRows } from './postings-tails';

/**
 * Where the pair lists are stored: a row per list, its integer key numbering the pair's two
 * tokens among the common tokens and the list's column (engine/postings/pairs.ts's pairRow).
 */

/** Each common token's place among them (storedCommon's order), which its pairs' rows are numbered by (pairs.ts's `pairRow`). */
export function commonPlaces(common: readonly string[]): Map<string, number> {
  return new Map(common.map((term, place) => [term, place]));
}

/** The first of the rows of a pair's lists, keyed "first second", among the common tokens' `places`. */
export function pairRowsOf(places: ReadonlyMap<string, number>, key: string): number {
  const space = key.indexOf(' ');
  return pairRow(places.get(key.slice(0, space))!, places.get(key.slice(space + 1))!, places.size, 0);
}

/** The pair lists' table and its tail, found by a pair's key ("first second") and col through their integer rows. */
export function pairListRows(db: Database.Database, deployment: Deployment, common: readonly string[]): ListRows {
  const t = tablesOf(deployment);
  const places = commonPlaces(common);
  const readRows = db
    .prepare(
      `SELECT whole.id, whole.docs, tail.data FROM ${t.pairs} AS whole LEFT JOIN ${t.pairsTail} AS tail ON tail.id = whole.id
         WHERE whole.id BETWEEN ? AND ?`,
    )
    .raw();
  const readWhole = db.prepare(`SELECT data FROM ${t.pairs} WHERE id = ?`).pluck();
  const writeWhole = db.prepare(`INSERT OR REPLACE INTO ${t.pairs} (id, docs, data) VALUES (?, ?, ?)`);
  const writeTail = db.prepare(`INSERT OR REPLACE INTO ${t.pairsTail} (id, docs, data) VALUES (?, ?, ?)`);
  const deleteWhole = db.prepare(`DELETE FROM ${t.pairs} WHERE id = ?`);
  const deleteTail = db.prepare(`DELETE FROM ${t.pairsTail} WHERE id = ?`);
  const row = (key: string, col: string) => pairRowsOf(places, key) + pairScope(col);
  return {
    rows: (key) => {
      const first = pairRowsOf(places, key);
      return (readRows.all(first, first + pairScopes - 1) as [number, number, Uint8Array | null][]).map(([id, docs, data]) => [
        pairColumnOf(id),
        docs,
        data,
      ]);
    },
    whole: (key, col) => readWhole.get(row(key, col)) as Uint8Array,
    writeWhole: (key, col, docs, data) => writeWhole.run(row(key, col), docs, data),
    writeTail: (key, col, docs, data) => writeTail.run(row(key, col), docs, data),
    deleteWhole: (key, col) => deleteWhole.run(row(key, col)),
    deleteTail: (key, col) => deleteTail.run(row(key, col)),
  };
}

/** A pair's list over whole records or in a column, joined with its tail where writes appended one; undefined where there is none. */
export function pairListReader(
  db: Database.Database,
  deployment: Deployment,
  common: readonly string[],
): (first: string, second: string, column: SearchColumn | undefined) => Postings | undefined {
  const t = tablesOf(deployment);
  const places = commonPlaces(common);
  const [whole, tail] = [t.pairs, t.pairsTail].map((name) => db.prepare(`SELECT data FROM ${name} WHERE id = ?`).pluck());
  return (first, second, column) => {
    const row = pairRow(places.get(first)!, places.get(second)!, places.size, pairScope(column ?? wholeRecord));
    const data = whole!.get(row) as Uint8Array | undefined;
    if (!data) return undefined;
    const appended = tail!.get(row) as Uint8Array | undefined;
    return appended ? new JoinedPostings(new StoredPostings(data), new StoredPostings(appended)) : new StoredPostings(data);
  };
}
