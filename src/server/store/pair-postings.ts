import type Database from 'better-sqlite3';
import type { Deployment } from '../../deployments/schema';
import { encodePostings, StoredPostings, type TokenPostings } from '../engine/postings/block-postings';
import { commonDocs, eachPair, pairKey, type WordInstances } from '../engine/postings/pairs';
import { noInstances, readInstances, wholeRecord } from '../engine/postings/positions';
import { tablesOf } from './sqlite/schema';

/**
 * The pair lists of adjacent common tokens (engine/postings/pairs.ts): built from the stored
 * postings and positions after a full build, and from one write's records for
 * postings-update.ts, which merges them into the stored ones.
 */

/** The common tokens the pair lists were built for. */
export function storedCommon(db: Database.Database, deployment: Deployment): string[] {
  return db
    .prepare(`SELECT term FROM ${tablesOf(deployment).common} ORDER BY term`)
    .pluck()
    .all() as string[];
}

/** A pair's lists over whole records and per column, by its key. */
export type PairLists = Map<string, Map<string, TokenPostings>>;

/** A token's instances from (record, column, offset) triples in that order. */
export function tripleInstances(triples: Int32Array): WordInstances {
  return {
    size: triples.length / 3,
    each(visit) {
      const instances = noInstances();
      for (let i = 0; i < triples.length;) {
        const doc = triples[i]!;
        let end = i;
        while (end < triples.length && triples[end] === doc) end += 3;
        const n = (end - i) / 3;
        if (instances.columns.length < n) {
          instances.columns = new Int32Array(n);
          instances.offsets = new Int32Array(n);
        }
        for (let k = 0; k < n; k++, i += 3) {
          instances.columns[k] = triples[i + 1]!;
          instances.offsets[k] = triples[i + 2]!;
        }
        instances.length = n;
        visit(doc, instances);
      }
    },
  };
}

/** The pair lists of `common` tokens whose instances, in records below `records`, are `words[w]`. */
export function pairListsOf(common: readonly string[], words: readonly WordInstances[], records: number): PairLists {
  const lists: PairLists = new Map();
  eachPair(words, records, (first, second, pair) => lists.set(pairKey(common[first]!, common[second]!), pair));
  return lists;
}

/**
 * Chooses the common tokens (those in at least `commonDocs(rows)` records, or `common` as
 * given) and writes their pair lists, from the stored postings and positions (read again
 * for each batch of first words, so memory holds one batch's places). In the writer's
 * transaction, after the postings.
 */
export function buildPairs(
  db: Database.Database,
  deployment: Deployment,
  lengths: Uint32Array,
  rows: number,
  common?: readonly string[],
): void {
  const t = tablesOf(deployment);
  const words =
    common ??
    (db
      .prepare(`SELECT term FROM ${t.postings} WHERE col = ? AND docs >= ? ORDER BY term`)
      .pluck()
      .all(wholeRecord, commonDocs(rows)) as string[]);
  const insertCommon = db.prepare(`INSERT INTO ${t.common} (term) VALUES (?)`);
  for (const word of words) insertCommon.run(word);
  const readList = db.prepare(`SELECT data FROM ${t.postings} WHERE col = ? AND term = ?`).pluck();
  const readPositions = db.prepare(`SELECT data FROM ${t.positions} WHERE term = ?`).pluck();
  const positionsSize = db.prepare(`SELECT length(data) FROM ${t.positions} WHERE term = ?`).pluck();
  const insertPair = db.prepare(`INSERT INTO ${t.pairs} (pair, col, docs, data) VALUES (?, ?, ?, ?)`);
  const stored = words.map((word): WordInstances => ({
    // Every instance takes a byte or more.
    size: positionsSize.get(word) as number,
    each(visit) {
      const list = new StoredPostings(readList.get(wholeRecord, word) as Buffer);
      const positions = readPositions.get(word) as Buffer;
      const instances = noInstances();
      let at = 0;
      for (let b = 0; b < list.blocks; b++) {
        for (const id of list.ids(b)) {
          at = readInstances(positions, at, instances);
          visit(id, instances);
        }
      }
    },
  }));
  eachPair(stored, lengths.length, (first, second, lists) => {
    const key = pairKey(words[first]!, words[second]!);
    for (const [column, list] of lists) insertPair.run(key, column, list.ids.length, encodePostings(list, lengths));
  });
}
