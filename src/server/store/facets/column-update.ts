import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { decodeBlock, recordsPerBlock } from './code-blocks';
import { changeOf, type ColumnChange } from './column-change';
import { readFacetColumns, type FacetColumns } from './column-reader';
import type { FacetIndex } from './facet-index';
import { mergedOrder, type FacetOrder } from './pages';
import { IndexCodes, recordCodes } from './index-codes';

/**
 * A generation's facet index taken over from the one before (the postings take tails the same
 * way): a write rewrites only the blocks of the records it wrote (facet-columns.ts), so the
 * blocks whose stored bytes are unchanged keep their records' codes, the dictionary is read
 * from the first new code on, and groups, A–Z orders and joint codes change only where
 * values came or went. What a change of that kind cannot follow (a name's join moving an
 * earlier name to another group, a value no record holds any longer, a single-valued facet
 * with two values) reads every column again, as a fresh reader does.
 */

/** What the generation before worked out: its index, its columns' state and its A–Z orders. */
export interface PreviousFacets {
  readonly index: FacetIndex;
  readonly columns: FacetColumns;
  readonly orders?: ReadonlyMap<string, FacetOrder>;
}

export interface ReadFacets {
  readonly index: FacetIndex;
  readonly columns: FacetColumns;
  /** The A–Z orders taken over, where they were. */
  readonly orders?: ReadonlyMap<string, FacetOrder>;
  /** How many blocks of records were decoded again (each block number once, over every facet). */
  readonly blocksRead: number;
  /** How many records' codes were worked out again from the blocks (the others' were taken over). */
  readonly recordsRead: number;
  /** Why every column was read again, where it was. */
  readonly readAgain?: string;
}

/** The index of a deployment's facets, taken over from `previous` where it can be, else read from every column. */
export function updateFacetColumns(
  db: Database.Database,
  deployment: Deployment,
  facets: readonly FacetDef[],
  capacity: number,
  previous: PreviousFacets | undefined,
): ReadFacets {
  const updated = previous ? takeOver(db, deployment, facets, capacity, previous) : 'no index before';
  if (typeof updated !== 'string') return updated;
  const read = readFacetColumns(db, deployment, facets, capacity);
  return { ...read, blocksRead: Math.ceil(capacity / recordsPerBlock), recordsRead: capacity, readAgain: updated };
}

/** The facets' columns as changed, each in the index before, or why one cannot be followed. */
function changesOf(
  db: Database.Database,
  deployment: Deployment,
  facets: readonly FacetDef[],
  previous: PreviousFacets,
): ColumnChange[] | string {
  const { index: before, columns } = previous;
  if (before.facets.size !== facets.length) return 'other facets';
  const changes: ColumnChange[] = [];
  let expected = 0;
  for (const facet of facets) {
    const state = columns.columns.get(facet.name);
    const codes = before.facets.get(facet.name);
    if (!state || !codes || codes.firstCode !== expected) return 'other facets';
    expected += codes.values.length;
    const change = changeOf(db, deployment, facet, state, codes);
    if (typeof change === 'string') return change;
    changes.push(change);
  }
  return changes;
}

/** The records to work out again: those of the blocks a write changed or new since, and those holding a group a name left. */
function recordsToRead(changes: readonly ColumnChange[], before: FacetIndex, oldCapacity: number, capacity: number) {
  const whole = new Set<number>();
  for (const change of changes) for (const block of change.decoded.keys()) whole.add(block);
  for (let block = Math.floor(oldCapacity / recordsPerBlock); block * recordsPerBlock < capacity; block++) whole.add(block);
  const moved = recordsHolding(
    before,
    changes.flatMap(({ old, moved }) => moved.map((group) => old.firstCode + group)),
  );
  const blocks = new Set(whole);
  for (const r of moved) blocks.add(Math.floor(r / recordsPerBlock));
  return { blocks, read: (r: number) => whole.has(Math.floor(r / recordsPerBlock)) || moved.has(r) };
}

/** Each record worked out again, by id, with the totals changed to count their new codes instead of their old. */
function readRecords(changes: readonly ColumnChange[], codes: IndexCodes, before: FacetIndex, oldCapacity: number, capacity: number) {
  const { blocks, read } = recordsToRead(changes, before, oldCapacity, capacity);
  const totals = new Int32Array(codes.base);
  for (let code = 0; code < before.totals.length; code++) totals[codes.remap[code]!] = before.totals[code]!;
  const worked = new Map<number, Int32Array>();
  const seen = new Int32Array(codes.base).fill(-1);
  for (const block of blocks) {
    const decoded = changes.map((change) => {
      if (!change.decoded.has(block)) {
        const data = change.stored[block];
        change.decoded.set(block, data ? decodeBlock(data) : undefined);
      }
      return change.decoded.get(block);
    });
    for (let i = 0, r = block * recordsPerBlock; i < recordsPerBlock && r < capacity; i++, r++) {
      if (!read(r)) continue;
      const own = recordCodes(codes, changes, decoded, i, seen, r);
      if (typeof own === 'string') return own;
      if (r < oldCapacity)
        for (let k = before.offsets[r]!; k < before.offsets[r + 1]!; k++)
          codes.eachMember(codes.remap[before.codes[k]!]!, (code) => totals[code]!--);
      for (const code of own) codes.eachMember(code, (member) => totals[member]!++);
      worked.set(r, Int32Array.from(own));
    }
  }
  return { worked, totals, blocksRead: blocks.size };
}

function takeOver(
  db: Database.Database,
  deployment: Deployment,
  facets: readonly FacetDef[],
  capacity: number,
  previous: PreviousFacets,
): ReadFacets | string {
  const { index: before, columns: beforeColumns } = previous;
  const oldCapacity = beforeColumns.capacity;
  if (capacity < oldCapacity) return 'fewer records';
  const changes = changesOf(db, deployment, facets, previous);
  if (typeof changes === 'string') return changes;
  const codes = new IndexCodes(changes, before);
  const read = readRecords(changes, codes, before, oldCapacity, capacity);
  if (typeof read === 'string') return read;
  const { worked, totals } = read;
  // The others' codes are the index before's, in this index's codes.
  const offsets = new Int32Array(capacity + 1);
  for (let r = 0; r < capacity; r++) offsets[r + 1] = offsets[r]! + (worked.get(r)?.length ?? before.offsets[r + 1]! - before.offsets[r]!);
  const all = new Int32Array(offsets[capacity]!);
  for (let r = 0, n = 0; r < capacity; r++) {
    const own = worked.get(r);
    if (own) {
      all.set(own, n);
      n += own.length;
    } else for (let k = before.offsets[r]!; k < before.offsets[r + 1]!; k++) all[n++] = codes.remap[before.codes[k]!]!;
  }
  const starts = new Int32Array(codes.members.length + 1);
  codes.members.forEach((members, j) => (starts[j + 1] = starts[j]! + members.length));
  const index: FacetIndex = {
    facets: new Map(
      changes.map(({ facet, old, values, variants }, f) => [
        facet.name,
        { values, firstCode: codes.firstCodes[f]!, ...(old.joint ? { joint: true } : {}), ...(variants.size ? { variants } : {}) },
      ]),
    ),
    offsets,
    codes: all,
    totals,
    ...(codes.members.length ? { joint: { base: codes.base, starts, members: Int32Array.from(codes.members.flat()) } } : {}),
  };
  const orders = previous.orders && ordersOf(changes, previous.orders);
  return {
    index,
    columns: { capacity, columns: new Map(changes.map(({ facet, state }) => [facet.name, state])) },
    ...(orders ? { orders } : {}),
    blocksRead: read.blocksRead,
    recordsRead: worked.size,
  };
}

/** The records of an index holding any of `groupCodes` (its own codes), themselves or in a joint code. */
function recordsHolding(index: FacetIndex, groupCodes: readonly number[]): Set<number> {
  const found = new Set<number>();
  if (!groupCodes.length) return found;
  const { offsets, codes, joint, totals } = index;
  const flagged = new Uint8Array(totals.length + (joint ? joint.starts.length - 1 : 0));
  for (const code of groupCodes) flagged[code] = 1;
  if (joint)
    for (let j = 0; j + 1 < joint.starts.length; j++)
      for (let m = joint.starts[j]!; m < joint.starts[j + 1]!; m++) if (flagged[joint.members[m]!]) flagged[joint.base + j] = 1;
  for (let r = 0; r + 1 < offsets.length; r++)
    for (let k = offsets[r]!; k < offsets[r + 1]!; k++)
      if (flagged[codes[k]!]) {
        found.add(r);
        break;
      }
  return found;
}

/** Each facet's A–Z order, the one before with its touched and new values sorted in. */
function ordersOf(changes: readonly ColumnChange[], before: ReadonlyMap<string, FacetOrder>): ReadonlyMap<string, FacetOrder> | undefined {
  const orders = new Map<string, FacetOrder>();
  for (const { facet, values, touched } of changes) {
    const old = before.get(facet.name);
    if (!old) return undefined;
    orders.set(facet.name, touched.size ? mergedOrder(old, values, touched) : { byValue: old.byValue, rank: old.rank });
  }
  return orders;
}
