import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { tablesOf } from '../sqlite/schema';
import { blockDecoder, recordsPerBlock } from './code-blocks';
import { sharedInts } from '../part-memory';
import { columnGroups, type ColumnGroups } from './column-groups';
import { indexOfCodes, type FacetCodes, type FacetIndex } from './facet-index';

/**
 * A deployment's facet index (facet-index.ts) read from its facet columns (facet-columns.ts):
 * each facet's dictionary and code blocks, the values grouped over the dictionary
 * (column-groups.ts), and the records' codes mapped to their groups' in two passes over the
 * blocks, a record counted once per group. No row of the keys table is read.
 */

/** One facet's column as read: its stored values by code, its blocks as stored (in `state`), and how many records hold each value. */
interface ColumnRead {
  readonly facet: FacetDef;
  readonly groups: ColumnGroups;
  readonly firstCode: number;
  readonly state: ColumnState;
}

/**
 * What the next generation's reader needs of a column to take this index over instead of
 * reading every column again (column-update.ts): its dictionary, how many records hold each
 * value, each value's group, and its blocks as stored, to tell which blocks a write changed.
 */
export interface ColumnState {
  readonly values: readonly string[];
  readonly folded: readonly string[];
  readonly held: Int32Array;
  /** Each value's group in the index (its code less the facet's first), -1 for a value no record holds. */
  readonly groupOf: Int32Array;
  /** Each group's name (ColumnGroups `keys`). */
  readonly keys: readonly string[];
  /** Block `b` as stored is `data[ends[b]]` up to `data[ends[b + 1]]` (none where they are equal). */
  readonly ends: Int32Array;
  readonly data: Uint8Array;
}

/** A deployment's facet index with what the next reader needs to take it over: its records' capacity and each facet's column state. */
export interface FacetColumns {
  readonly capacity: number;
  readonly columns: ReadonlyMap<string, ColumnState>;
}

/** Block data as stored, concatenated, by block number. */
export function concatBlocks(blocks: readonly (Uint8Array | undefined)[]): { ends: Int32Array; data: Uint8Array } {
  const ends = new Int32Array(blocks.length + 1);
  blocks.forEach((block, b) => (ends[b + 1] = ends[b]! + (block?.length ?? 0)));
  const data = new Uint8Array(ends[blocks.length]!);
  blocks.forEach((block, b) => block && data.set(block, ends[b]));
  return { ends, data };
}

/** Reads a column, adding each record's number of codes in it (below `capacity`) to `counts[record + 1]`. */
function readColumn(
  db: Database.Database,
  deployment: Deployment,
  facet: FacetDef,
  firstCode: number,
  counts: Int32Array,
  capacity: number,
): ColumnRead {
  const t = tablesOf(deployment);
  const values: string[] = [];
  const folded: string[] = [];
  const dictionary = db.prepare(`SELECT code, value, grp FROM ${t.facetDict} WHERE facet = ?`).raw();
  for (const [code, value, group] of dictionary.iterate(facet.name) as Iterable<[number, string, string]>) {
    values[code] = value;
    folded[code] = group;
  }
  const stored: Uint8Array[] = [];
  const held = new Int32Array(values.length);
  const decode = blockDecoder();
  for (const [block, data] of db.prepare(`SELECT block, data FROM ${t.facetBlocks} WHERE facet = ?`).raw().iterate(facet.name) as Iterable<
    [number, Uint8Array]
  >) {
    stored[block] = data;
    const { offsets, codes } = decode(data);
    for (let k = 0; k < codes.length; k++) held[codes[k]!]!++;
    for (let i = 0, r = block * recordsPerBlock; i < recordsPerBlock && r < capacity; i++, r++)
      counts[r + 1]! += offsets[i + 1]! - offsets[i]!;
  }
  const groups = columnGroups(facet, values, folded, held);
  return {
    facet,
    groups,
    firstCode,
    state: { values, folded, held, groupOf: groups.groupOf, keys: groups.keys, ...concatBlocks(stored) },
  };
}

/**
 * Calls `each(record, group)` for every group code (the index's) of every record below
 * `capacity` in a column, each group once per record; its blocks decoded again, one at a time.
 */
function eachCode(column: ColumnRead, capacity: number, each: (record: number, code: number) => void): void {
  const { groups, firstCode } = column;
  const { ends, data } = column.state;
  const last = new Int32Array(groups.spellings.length).fill(-1);
  const groupOf = groups.groupOf;
  const decode = blockDecoder();
  for (let b = 0; b + 1 < ends.length; b++) {
    if (ends[b] === ends[b + 1]) continue;
    const { offsets, codes } = decode(data.subarray(ends[b], ends[b + 1]));
    for (let i = 0, r = b * recordsPerBlock; i < recordsPerBlock && r < capacity; i++, r++) {
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
        const group = groupOf[codes[k]!]!;
        // Two spellings of one group (a name and a shorter form joining it) count once.
        if (group < 0 || last[group] === r) continue;
        last[group] = r;
        each(r, firstCode + group);
      }
    }
  }
}

/**
 * The codes with the gaps closed that records left where they hold two spellings of one
 * group (counted as two codes, filled as one), `offsets` moved to match; `filled[r]` is
 * where record r's codes end as filled.
 */
function closeGaps(offsets: Int32Array, filled: Int32Array, codes: Int32Array): Int32Array {
  const records = filled.length;
  let gaps = false;
  for (let r = 0; r < records && !gaps; r++) gaps = filled[r] !== offsets[r + 1];
  if (!gaps) return codes;
  let n = 0;
  for (let r = 0; r < records; r++) {
    const start = offsets[r]!;
    offsets[r] = n;
    codes.copyWithin(n, start, filled[r]);
    n += filled[r]! - start;
  }
  offsets[records] = n;
  return codes.subarray(0, n);
}

/** The index of `facets` of a deployment, read from its facet columns. */
export function loadFacetIndex(db: Database.Database, deployment: Deployment, facets: readonly FacetDef[], capacity: number): FacetIndex {
  return readFacetColumns(db, deployment, facets, capacity).index;
}

/** The index of `facets` of a deployment read from its facet columns, and the columns' state for the next reader. */
export function readFacetColumns(
  db: Database.Database,
  deployment: Deployment,
  facets: readonly FacetDef[],
  capacity: number,
): { index: FacetIndex; columns: FacetColumns } {
  // Made on memory of their own (part-memory.ts), where the index is handed over from, or
  // given back to the system once joint codes replace them, not kept by this thread's heap.
  // Each record's codes are counted as the columns are read, so their blocks are decoded
  // once more only, to fill the codes in.
  const offsets = sharedInts(capacity + 1);
  const columns: ColumnRead[] = [];
  let codeCount = 0;
  for (const facet of facets) {
    const column = readColumn(db, deployment, facet, codeCount, offsets, capacity);
    columns.push(column);
    codeCount += column.groups.spellings.length;
  }
  for (let r = 0; r < capacity; r++) offsets[r + 1]! += offsets[r]!;
  let codes = sharedInts(offsets[capacity]!);
  const totals = sharedInts(codeCount);
  const next = offsets.slice(0, capacity);
  // Facet after facet, so each record's codes are grouped by facet in code order.
  for (const column of columns)
    eachCode(column, capacity, (record, code) => {
      codes[next[record]!++] = code;
      totals[code]!++;
    });
  codes = closeGaps(offsets, next, codes);
  const held = new Map<string, FacetCodes>(
    columns.map(({ facet, groups, firstCode }) => {
      const variants = new Map<number, readonly string[]>();
      groups.spellings.forEach((spellings, code) => spellings.length > 1 && variants.set(code, spellings));
      const values = groups.spellings.map((spellings) => spellings[0]!);
      return [facet.name, { values, firstCode, ...(variants.size ? { variants } : {}) }];
    }),
  );
  return {
    index: indexOfCodes(held, offsets, codes, totals),
    columns: { capacity, columns: new Map(columns.map(({ facet, state }) => [facet.name, state])) },
  };
}
