import type { TokenPostings } from '../../../engine/postings/block-postings';
import type { ListTable } from './postings-tails';

/**
 * The tokens whose lists a write may leave as they are: every record of the write holding
 * the token holds it at the same places as before (a record written again with the same
 * text, as a harvest sends a record whose metadata changed elsewhere), each with those
 * records' ids. Their lists are the same but for the block frontiers, which hold their
 * records' lengths: kept outright where the records' lengths are the same too, else where
 * every frontier is (ListTable.sameFrontiers). Otherwise a common word's whole list would
 * be rewritten for nothing.
 */
export function sameTextTokens(
  replaced: ReadonlyMap<string, Int32Array>,
  written: ReadonlyMap<string, Int32Array>,
): Map<string, Int32Array> {
  const same = new Map<string, Int32Array>();
  for (const [term, before] of replaced) {
    const after = written.get(term);
    if (!after || after.length !== before.length) continue;
    let equal = true;
    for (let i = 0; equal && i < before.length; i++) equal = before[i] === after[i];
    if (equal) same.set(term, recordsOf(before));
  }
  return same;
}

/** The distinct records of (record, column, offset) triples ordered by record. */
function recordsOf(triples: Int32Array): Int32Array {
  const ids: number[] = [];
  for (let i = 0; i < triples.length; i += 3) if (ids[ids.length - 1] !== triples[i]) ids.push(triples[i]!);
  return Int32Array.from(ids);
}

export const allIn = (ids: Int32Array, set: ReadonlySet<number>) => ids.every((id) => set.has(id));

/** The records of a pair's lists over a write's records if they are the same before and after it; undefined otherwise. */
export function samePairLists(
  before: ReadonlyMap<string, TokenPostings> | undefined,
  after: ReadonlyMap<string, TokenPostings> | undefined,
): Int32Array | undefined {
  if (!before || !after || before.size !== after.size) return undefined;
  const ids = new Set<number>();
  for (const [col, list] of before) {
    const other = after.get(col);
    if (!other || other.ids.length !== list.ids.length) return undefined;
    for (let i = 0; i < list.ids.length; i++) {
      if (list.ids[i] !== other.ids[i] || list.counts[i] !== other.counts[i]) return undefined;
      ids.add(list.ids[i]!);
    }
  }
  return Int32Array.from(ids).sort();
}

/** The tokens whose lists a write leaves as they are (sameTextTokens): their records' lengths `unchanged`, or their frontiers the same. */
export function keptTokens(
  replaced: ReadonlyMap<string, Int32Array>,
  written: ReadonlyMap<string, Int32Array>,
  unchanged: (ids: Int32Array) => boolean,
  tokens: ListTable,
  lengths: ArrayLike<number>,
): Set<string> {
  const kept = new Set<string>();
  for (const [term, ids] of sameTextTokens(replaced, written))
    if (unchanged(ids) || tokens.sameFrontiers(term, ids, lengths)) kept.add(term);
  return kept;
}
