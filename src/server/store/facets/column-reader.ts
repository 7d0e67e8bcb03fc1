import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { tablesOf } from '../sqlite/schema';
import { decodeBlock, recordsPerBlock, type DecodedBlock } from './code-blocks';
import { columnGroups, type ColumnGroups } from './column-groups';
import { indexOfCodes, type FacetCodes, type FacetIndex } from './facet-index';

/**
 * A deployment's facet index (facet-index.ts) read from its facet columns (facet-columns.ts):
 * each facet's dictionary and code blocks, the values grouped over the dictionary
 * (column-groups.ts), and the records' codes mapped to their groups' in two passes over the
 * blocks, a record counted once per group. No row of the keys table is read.
 */

/** One facet's column as read: its stored values by code, its blocks, and how many records hold each value. */
interface ColumnRead {
  readonly facet: FacetDef;
  readonly blocks: readonly (DecodedBlock | undefined)[];
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

function readColumn(db: Database.Database, deployment: Deployment, facet: FacetDef, firstCode: number): ColumnRead {
  const t = tablesOf(deployment);
  const values: string[] = [];
  const folded: string[] = [];
  const dictionary = db.prepare(`SELECT code, value, grp FROM ${t.facetDict} WHERE facet = ?`).raw();
  for (const [code, value, group] of dictionary.iterate(facet.name) as Iterable<[number, string, string]>) {
    values[code] = value;
    folded[code] = group;
  }
  const blocks: DecodedBlock[] = [];
  const stored: Uint8Array[] = [];
  const held = new Int32Array(values.length);
  for (const [block, data] of db.prepare(`SELECT block, data FROM ${t.facetBlocks} WHERE facet = ?`).raw().iterate(facet.name) as Iterable<
    [number, Uint8Array]
  >) {
    const decoded = decodeBlock(data);
    blocks[block] = decoded;
    stored[block] = data;
    const { codes } = decoded;
    for (let k = 0; k < codes.length; k++) held[codes[k]!]!++;
  }
  const groups = columnGroups(facet, values, folded, held);
  return {
    facet,
    blocks,
    groups,
    firstCode,
    state: { values, folded, held, groupOf: groups.groupOf, keys: groups.keys, ...concatBlocks(stored) },
  };
}

/**
 * Calls `each(record, group)` for every group code (the index's) of every record below
 * `capacity` in a column, each group once per record.
 */
function eachCode(column: ColumnRead, capacity: number, each: (record: number, code: number) => void): void {
  const { blocks, groups, firstCode } = column;
  const last = new Int32Array(groups.spellings.length).fill(-1);
  const groupOf = groups.groupOf;
  blocks.forEach((block, b) => {
    if (!block) return;
    const { offsets, codes } = block;
    for (let i = 0, r = b * recordsPerBlock; i < recordsPerBlock && r < capacity; i++, r++) {
      for (let k = offsets[i]!; k < offsets[i + 1]!; k++) {
        const group = groupOf[codes[k]!]!;
        // Two spellings of one group (a name and a shorter form joining it) count once.
        if (group < 0 || last[group] === r) continue;
        last[group] = r;
        each(r, firstCode + group);
      }
    }
  });
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
  const columns: ColumnRead[] = [];
  let codeCount = 0;
  for (const facet of facets) {
    const column = readColumn(db, deployment, facet, codeCount);
    columns.push(column);
    codeCount += column.groups.spellings.length;
  }
  const offsets = new Int32Array(capacity + 1);
  for (const column of columns) eachCode(column, capacity, (record) => offsets[record + 1]!++);
  for (let r = 0; r < capacity; r++) offsets[r + 1]! += offsets[r]!;
  const codes = new Int32Array(offsets[capacity]!);
  const totals = new Int32Array(codeCount);
  const next = offsets.slice(0, capacity);
  // Facet after facet, so each record's codes are grouped by facet in code order.
  for (const column of columns)
    eachCode(column, capacity, (record, code) => {
      codes[next[record]!++] = code;
      totals[code]!++;
    });
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
