import type Database from 'better-sqlite3';
import type { Deployment, SearchColumn } from '../../../../deployments/schema';
import { noPostings, type TokenPostings } from '../../../engine/postings/block-postings';
import {
  appendedPositions,
  decodePositions,
  DocumentsJoiner,
  encodePositions,
  instanceStarts,
  noDocumentInstances,
  postingsOf,
  wholeRecord,
  type DocumentInstances,
} from '../../../engine/postings/positions';
import { pairListsOf, storedCommon, tripleInstances, type PairLists } from './pair-postings';
import { pairListRows } from './pair-rows';
import { ChangedIds, ListTable } from './postings-tails';
import { allIn, keptTokens, samePairLists } from './unchanged-lists';
import { positionsRows, TermRows } from './term-rows';
import { textInstances } from './text-instances';
import { tablesOf } from '../schema';

/**
 * Postings kept up to date write by write, in the writer's transaction: only the lists of
 * the tokens in the records a write adds or replaces are touched, and new records' postings
 * mostly go to the lists' tails (postings-tails.ts), so a write of a thousand records into a
 * million rewrites neither the index nor its common words' lists. Read with their tails, the
 * lists are exactly what a full rebuild (buildPostings) gives for the same common tokens,
 * which only a full build chooses (engine/postings/pairs.ts); postings.test.ts holds them to that.
 *
 * The written records are tokenized as a full build tokenizes (text-instances.ts, FTS5's own
 * tokens), which gives the same tokens, columns and offsets as the build itself.
 */

export type ColumnTexts = Readonly<Record<SearchColumn, string>>;

/** A record's searchable text before a write (none for a new record) and after it. */
export interface TextChange {
  readonly before?: ColumnTexts;
  readonly after: ColumnTexts;
}

/**
 * A token's positions after the write: the stored ones (`positions`, following `stored`,
 * its whole-record list) without the changed records', merged with the written records'
 * own. Positions follow the list document by document, so they are cut and joined at
 * document boundaries, runs of untouched documents copied as one piece.
 */
function mergedPositions(
  stored: TokenPostings,
  positions: DocumentInstances,
  changed: ChangedIds,
  added: TokenPostings,
  addedPositions: DocumentInstances,
): DocumentInstances {
  const n = stored.ids.length;
  const storedStarts = instanceStarts(positions);
  const addedStarts = instanceStarts(addedPositions);
  const out = new DocumentsJoiner(n + added.ids.length, positions.columns.length + addedPositions.columns.length);
  let i = 0;
  let a = 0;
  while (i < n || a < added.ids.length) {
    if (a < added.ids.length && (i >= n || added.ids[a]! < stored.ids[i]!)) {
      out.add(addedPositions, addedStarts, a, a + 1);
      a++;
    } else if (changed.has(stored.ids[i]!)) {
      i++;
    } else {
      // A run of kept documents up to the next changed or added one.
      let end = i;
      const stop = a < added.ids.length ? added.ids[a]! : Infinity;
      while (end < n && stored.ids[end]! < stop && !changed.has(stored.ids[end]!)) end++;
      out.add(positions, storedStarts, i, end);
      i = end;
    }
  }
  return out.build();
}

/**
 * The pair lists of the records (ids from `low` up to `high`) whose token instances, as
 * (record, column, offset) triples, are `instances`: laid out over the written records' ids
 * only, not the store's.
 */
function pairsOfRecords(common: readonly string[], instances: ReadonlyMap<string, Int32Array>, low: number, high: number): PairLists {
  const none = new Int32Array(0);
  return pairListsOf(
    common,
    common.map((word) => tripleInstances(instances.get(word) ?? none)),
    low,
    high,
  );
}

/**
 * Each token of some texts with its instances as (record, column, offset) triples, gathered
 * as a full build gathers them (text-instances.ts) with scratch tables of that name;
 * `lengths` takes each text's token count.
 */
function instancesReader(
  db: Database.Database,
  scratch: string,
): (texts: readonly [number, ColumnTexts][], lengths?: Uint32Array) => Map<string, Int32Array> {
  return (texts, lengths) => {
    const instances = new Map<string, Int32Array>();
    if (texts.length === 0) return instances;
    const byId = [...texts].sort(([a], [b]) => a - b);
    const gathered = textInstances(db, scratch, byId);
    try {
      gathered.each((term, triples) => instances.set(term, triples));
      if (lengths) for (const [id] of byId) lengths[id] = gathered.lengths[id]!;
    } finally {
      gathered.drop();
    }
    return instances;
  };
}

/** Applies writes' text changes to a deployment's postings; call it inside the write's transaction. */

export function postingsUpdater(db: Database.Database, deployment: Deployment): (changes: ReadonlyMap<number, TextChange>) => void {
  const t = tablesOf(deployment);
  const instancesOf = instancesReader(db, `${t.tokenizing}_changes`);
  const [positions, tailPositions] = [positionsRows(db, t.positions), positionsRows(db, t.positionsTail)];
  const readStored = db.prepare(`SELECT rows, tokens, data FROM ${t.lengths}`);
  const writeLengths = db.prepare(`INSERT INTO ${t.lengths} (rows, tokens, data) VALUES (?, ?, ?)`);
  const clearLengths = db.prepare(`DELETE FROM ${t.lengths}`);

  return (changes) => {
    // The lengths after the write first: each block's frontier written below holds its records' lengths.
    const stored = readStored.get() as { rows: number; tokens: number; data: Buffer };
    const idsBefore = stored.data.length / 4;
    const changed = new ChangedIds([...changes.keys()], idsBefore);
    let maxId = idsBefore - 1;
    for (const id of changes.keys()) maxId = Math.max(maxId, id);
    const lengths = new Uint32Array(maxId + 1);
    const storedLengths = new Uint32Array(new Uint8Array(stored.data).buffer);
    lengths.set(storedLengths);
    // bm25's totals as FTS5 kept them: every record, and the tokens of all.
    let { rows, tokens: tokenCount } = stored;
    for (const [id, { before }] of changes) {
      if (before) tokenCount -= lengths[id]!;
      else rows++;
    }

    const replaced = instancesOf([...changes].flatMap(([id, { before }]) => (before ? [[id, before] as [number, ColumnTexts]] : [])));
    const written = instancesOf(
      [...changes].map(([id, { after }]) => [id, after] as [number, ColumnTexts]),
      lengths,
    );
    for (const id of changes.keys()) tokenCount += lengths[id]!;
    const sameLength = new Set([...changes].filter(([id, { before }]) => before && lengths[id] === storedLengths[id]).map(([id]) => id));
    // Made for each write: a full build since numbers the tokens afresh.
    const termRows = new TermRows(db, deployment);
    const tokens = new ListTable(termRows);
    const kept = keptTokens(replaced, written, (ids) => allIn(ids, sameLength), tokens, lengths);
    const touched = new Set([...replaced.keys(), ...written.keys()].filter((term) => !kept.has(term)));

    for (const term of touched) {
      const instances = written.get(term);
      const added = instances ? postingsOf(instances) : undefined;
      const addedWhole = added?.lists.get(wholeRecord) ?? noPostings;
      const addedPositions = added?.instances ?? noDocumentInstances;
      // The whole-record list carries the positions: they go where its postings go.
      const how = tokens.update(term, added?.lists ?? new Map(), changed, lengths, (col, stored, list) => {
        if (col !== wholeRecord) return;
        // Numbered by now: its whole-record list was just written, or deleted.
        const id = termRows.idOf(term)!;
        if (list.ids.length === 0) positions.remove(id);
        else {
          const parts = [...positions.read(id), ...tailPositions.read(id)];
          // New records have ids above every stored one: their positions go after the stored ones.
          if (changed.newOnly) positions.write(id, appendedPositions(parts, addedPositions));
          else positions.write(id, encodePositions(mergedPositions(stored, decodePositions(parts), changed, addedWhole, addedPositions)));
        }
        tailPositions.remove(id);
      });
      if (how.get(wholeRecord) === 'append') {
        const id = termRows.idOf(term)!;
        tailPositions.write(id, appendedPositions(tailPositions.read(id), addedPositions));
      }
    }

    // The pairs of the stored common tokens in the records before and after the write.
    const common = storedCommon(db, deployment);
    // The pair lists' rows number the common tokens of the last full build, which may have come after this updater was made.
    const pairs = new ListTable(pairListRows(db, deployment, common));
    const [low, high] = [changed.sorted[0] ?? 0, maxId + 1];
    const writtenPairs = pairsOfRecords(common, written, low, high);
    const replacedPairs = pairsOfRecords(common, replaced, low, high);
    for (const pair of new Set([...replacedPairs.keys(), ...writtenPairs.keys()])) {
      const same = samePairLists(replacedPairs.get(pair), writtenPairs.get(pair));
      if (same && (allIn(same, sameLength) || pairs.sameFrontiers(pair, same, lengths))) continue;
      pairs.update(pair, writtenPairs.get(pair) ?? new Map(), changed, lengths);
    }

    clearLengths.run();
    writeLengths.run(rows, tokenCount, Buffer.from(lengths.buffer));
  };
}
