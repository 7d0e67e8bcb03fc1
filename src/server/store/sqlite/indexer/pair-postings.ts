import type Database from 'better-sqlite3';
import type { Deployment } from '../../../../deployments/schema';
import { encodePostings, StoredPostings, type TokenPostings } from '../../../engine/postings/block-postings';
import { commonDocs, eachPairIn, pairKey, pairRow, pairScope, type WordInstances } from '../../../engine/postings/pairs';
import { noInstances, PositionsWalk, StoredPositions } from '../../../engine/postings/positions';
import { VarintCursor, VarintWriter } from '../../../engine/postings/varint';
import { tablesOf } from '../schema';
import { commonPlaces } from './pair-rows';
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

/** Where a token's instances were left: its list's block and entry there, and the document's place in the list. */
interface Walk {
  readonly block: number;
  readonly entry: number;
  readonly doc: number;
}

/** A token's instances from `from` to the first record at or above `high`, and where they end. */
function storedRange(list: StoredPostings, positions: StoredPositions, from: Walk, high: number): WordInstances & { end: Walk } {
  return {
    end: from,
    each(visit) {
      const instances = noInstances();
      const walk = new PositionsWalk({ parts: [positions], starts: [0] });
      walk.skipTo(from.doc);
      let { block, entry } = from;
      for (; block < list.blocks; block++, entry = 0) {
        const ids = list.ids(block);
        for (; entry < ids.length; entry++) {
          if (ids[entry]! >= high) {
            this.end = { block, entry, doc: walk.doc };
            return;
          }
          walk.read(instances);
          visit(ids[entry]!, instances);
        }
      }
      this.end = { block, entry: 0, doc: walk.doc };
    },
  };
}

/**
 * Chooses the common tokens (those in at least `commonDocs(rows)` records, or `common` as
 * given) and writes their pair lists, from the stored postings and positions, a range of
 * records at a time so memory holds one range's places; each pair's ranges are joined at
 * the end. In the writer's transaction, after the postings.
 */
export function buildPairs(
  db: Database.Database,
  deployment: Deployment,
  lengths: Uint32Array,
  rows: number,
  common?: readonly string[],
  recordsAtOnce = defaultRecordsAtOnce,
): void {
  const t = tablesOf(deployment);
  const words = common ?? tokensInAtLeast(db, deployment, commonDocs(rows));
  const insertCommon = db.prepare(`INSERT INTO ${t.common} (term) VALUES (?)`);
  for (const word of words) insertCommon.run(word);
  if (words.length === 0) return;
  const stored = wholeTokenReader(db, deployment);
  const insertPair = db.prepare(`INSERT INTO ${t.pairs} (id, docs, data) VALUES (?, ?, ?)`);
  const places = commonPlaces(storedCommon(db, deployment));
  const rowOf = (first: number, second: number, column: string) =>
    pairRow(places.get(words[first]!)!, places.get(words[second]!)!, places.size, pairScope(column));
  const rangeOf = (high: number, walks: readonly Walk[]) =>
    words.map((word, w) => {
      const { list, positions } = stored(word);
      return storedRange(new StoredPostings(list), new StoredPositions(positions), walks[w]!, high);
    });
  const start = words.map(() => ({ block: 0, entry: 0, doc: 0 }));
  if (lengths.length <= recordsAtOnce) {
    // One range holds every record: its lists are whole, written as they come.
    eachPairIn(rangeOf(lengths.length, start), 0, lengths.length, (first, second, lists) => {
      for (const [column, list] of lists) insertPair.run(rowOf(first, second, column), list.ids.length, encodePostings(list, lengths));
    });
    return;
  }
  const parts = `${t.pairs}_parts`;
  db.exec(`CREATE TEMP TABLE ${parts} (id INTEGER, part INTEGER, data BLOB, PRIMARY KEY (id, part)) WITHOUT ROWID`);
  try {
    const insertPart = db.prepare(`INSERT INTO temp.${parts} (id, part, data) VALUES (?, ?, ?)`);
    let walks: Walk[] = start;
    for (let low = 0, part = 0; low < lengths.length; low += recordsAtOnce, part++) {
      const high = Math.min(lengths.length, low + recordsAtOnce);
      const ranges = rangeOf(high, walks);
      eachPairIn(ranges, low, high, (first, second, lists) => {
        for (const [column, list] of lists) insertPart.run(rowOf(first, second, column), part, encodePiece(list));
      });
      walks = ranges.map((range) => range.end);
    }
    // Every piece in (row, part) order, a page at a time (the connection writes between pages); a list's
    // pieces are joined once the next list's first piece is read.
    const page = db.prepare(`SELECT id, part, data FROM temp.${parts} WHERE (id, part) > (?, ?) ORDER BY id, part LIMIT ?`).raw();
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
    db.exec(`DROP TABLE temp.${parts}`);
  }
}

/**
 * A range's piece of a pair list, as it waits for the others: its length, then its id gaps
 * and counts as LEB128. The list is encoded once, whole, when its pieces are joined.
 */
const piece = new VarintWriter();

function encodePiece({ ids, counts }: TokenPostings): Buffer {
  piece.clear();
  piece.write(ids.length);
  for (let i = 0; i < ids.length; i++) piece.write(ids[i]! - (i === 0 ? 0 : ids[i - 1]!));
  for (let i = 0; i < ids.length; i++) piece.write(counts[i]!);
  return Buffer.from(piece.toBuffer());
}

/** A list from its successive ranges' pieces. */
function joinedPieces(pieces: readonly Buffer[]): TokenPostings {
  const cursors = pieces.map((data) => new VarintCursor(data));
  const sizes = cursors.map((cursor) => cursor.read());
  const ids = new Int32Array(sizes.reduce((sum, size) => sum + size, 0));
  const counts = new Uint32Array(ids.length);
  let n = 0;
  cursors.forEach((cursor, p) => {
    const start = n;
    for (let i = 0, id = 0; i < sizes[p]!; i++) ids[n++] = id += cursor.read();
    for (let i = start; i < n; i++) counts[i] = cursor.read();
  });
  return { ids, counts };
}
