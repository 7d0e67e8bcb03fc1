import type Database from 'better-sqlite3';
import type { Deployment } from '../../../../deployments/schema';
import { encodePostings, StoredPostings, type TokenPostings } from '../../../engine/postings/block-postings';
import { commonDocs, eachPairIn, pairKey, pairRow, pairScope, type WordInstances } from '../../../engine/postings/pairs';
import { noInstances, StoredPositions } from '../../../engine/postings/positions';
import { tablesOf } from '../schema';
import { commonPlaces } from './pair-rows';
import { buildRanges, joinedPieces, pairJob, storedRange, type PairHelper, type PieceBatch } from './pair-ranges';
import { tokensInAtLeast, wholeTokenReader } from './term-rows';

/**
 * The pair lists of adjacent common tokens (engine/postings/pairs.ts): built from the stored
 * postings and positions after a full build, and from one write's records for
 * postings-update.ts, which merges them into the stored ones.
 */

/**
 * Records whose common tokens' places (8 bytes each, some 220 a generated LIT record) and
 * pairs met (5 bytes each, some 200) are held in memory at once while the lists are built;
 * each range reads every common token's list and positions again, and gives each pair a
 * piece to be joined, so fewer ranges cost less, and a store of one range joins nothing.
 */
const defaultRecordsAtOnce = 131072;

/** Pieces of pair lists read back at a time to be joined. */
const piecesAtOnce = 4096;

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

/** The pair lists of `common` tokens whose instances, in records `low` up to `high`, are `words[w]`. */
export function pairListsOf(common: readonly string[], words: readonly WordInstances[], low: number, high: number): PairLists {
  const lists: PairLists = new Map();
  eachPairIn(words, low, high, (first, second, pair) => lists.set(pairKey(common[first]!, common[second]!), pair));
  return lists;
}

/**
 * Chooses the common tokens (those in at least `commonDocs(rows)` records, or `common` as
 * given) and writes their pair lists, from the stored postings and positions, a range of
 * records at a time so memory holds one range's places; each pair's ranges are joined at
 * the end. With a `helper`, the ranges are shared with it, in an even number. In the writer's
 * transaction, after the postings.
 */
export function buildPairs(
  db: Database.Database,
  deployment: Deployment,
  lengths: Uint32Array,
  rows: number,
  {
    common,
    recordsAtOnce = defaultRecordsAtOnce,
    helper,
  }: { readonly common?: readonly string[]; readonly recordsAtOnce?: number; readonly helper?: PairHelper } = {},
): void {
  const t = tablesOf(deployment);
  const words = common ?? tokensInAtLeast(db, deployment, commonDocs(rows));
  const insertCommon = db.prepare(`INSERT INTO ${t.common} (term) VALUES (?)`);
  for (const word of words) insertCommon.run(word);
  if (words.length === 0) return;
  const stored = wholeTokenReader(db, deployment);
  const insertPair = db.prepare(`INSERT INTO ${t.pairs} (id, docs, data) VALUES (?, ?, ?)`);
  const places = commonPlaces(storedCommon(db, deployment));
  const rowOf = (first: number, second: number, scope: number) =>
    pairRow(places.get(words[first]!)!, places.get(words[second]!)!, places.size, scope);
  let parts = Math.ceil(lengths.length / recordsAtOnce);
  if (parts === 1) {
    // One range holds every record: its lists are whole, written as they come.
    const ranges = words.map((word) => {
      const { list, positions } = stored(word);
      return storedRange(new StoredPostings(list), new StoredPositions(positions), 0, lengths.length);
    });
    eachPairIn(ranges, 0, lengths.length, (first, second, lists) => {
      for (const [column, list] of lists)
        insertPair.run(rowOf(first, second, pairScope(column)), list.ids.length, encodePostings(list, lengths));
    });
    return;
  }
  const partsTable = `${t.pairs}_parts`;
  db.exec(`CREATE TEMP TABLE ${partsTable} (id INTEGER, part INTEGER, data BLOB, PRIMARY KEY (id, part)) WITHOUT ROWID`);
  try {
    const insertPart = db.prepare(`INSERT INTO temp.${partsTable} (id, part, data) VALUES (?, ?, ?)`);
    const insertPieces = ({ part, pieces, bytes }: PieceBatch) => {
      for (let p = 0, start = 0; p < pieces.length; p += 4) {
        const end = pieces[p + 3]!;
        insertPart.run(
          rowOf(pieces[p]!, pieces[p + 1]!, pieces[p + 2]!),
          part,
          Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start),
        );
        start = end;
      }
    };
    // Shared, the ranges are as many for each thread (a range's work grows with its records).
    if (helper) parts += parts % 2;
    const job = pairJob(words.map(stored), lengths.length, Math.ceil(lengths.length / parts), helper ? 2 : 1);
    helper?.start(job);
    buildRanges(job, 0, insertPieces, () => helper?.drain(insertPieces, false));
    while (helper && !helper.drain(insertPieces, true));
    // Every piece in (row, part) order, a page at a time (the connection writes between pages); a list's
    // pieces are joined once the next list's first piece is read.
    const page = db.prepare(`SELECT id, part, data FROM temp.${partsTable} WHERE (id, part) > (?, ?) ORDER BY id, part LIMIT ?`).raw();
    let pieces: Buffer[] = [];
    let at: [number, number] = [-1, -1];
    const write = () => {
      if (pieces.length === 0) return;
      const list = joinedPieces(pieces);
      insertPair.run(at[0], list.ids.length, encodePostings(list, lengths));
      pieces = [];
    };
    for (;;) {
      const rows = page.all(...at, piecesAtOnce) as [number, number, Buffer][];
      for (const [id, part, data] of rows) {
        if (id !== at[0]) write();
        pieces.push(data);
        at = [id, part];
      }
      if (rows.length < piecesAtOnce) break;
    }
    write();
  } finally {
    db.exec(`DROP TABLE temp.${partsTable}`);
  }
}
