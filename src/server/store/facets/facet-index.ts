import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import type { CountSource } from '../../../formats/facet-kinds/facet-kind';
import { countSourceOf, facetKeyName, groupOf, hasFacetRows } from './facet-values';
import { withJointCodes, type JointCodes } from './joint-codes';
import { storedJoins } from './name-joins';
import { tablesOf } from '../sqlite/schema';
import { doubled } from '../../engine/typed-arrays';

/**
 * A deployment's facet values held in memory per connection, read once from the keys table
 * (and the publication dates): every value of every facet has a code, and each record the
 * codes of its values, in one compressed-row array. Counting a search's values is then one
 * pass over its matching records, however many facets are asked for, with no SQL per request.
 */
export interface FacetIndex {
  /** Each facet's values, from code `firstCode` on; `joint` where its codes are held by joint codes. */
  readonly facets: ReadonlyMap<string, FacetCodes>;
  /** Records with id r hold the codes `codes[offsets[r]]` up to `codes[offsets[r + 1]]`, ascending. */
  readonly offsets: Int32Array;
  readonly codes: Int32Array;
  /** Each value code's number of records over the whole deployment. */
  readonly totals: Int32Array;
  /** The codes from `totals.length` on, each for several values (joint-codes.ts). */
  readonly joint?: JointCodes;
}

/** One facet's values in an index. */
export interface FacetCodes {
  readonly values: readonly string[];
  readonly firstCode: number;
  readonly joint?: boolean;
  /** The spellings a value (by its code in the facet) stands for, commonest first, where it has more than one. */
  readonly variants?: ReadonlyMap<number, readonly string[]>;
}

/** Ids of one value, appended to a typed array that grows by doubling (millions of rows, no boxed numbers). */
class IdList {
  ids = new Int32Array(16);
  length = 0;
  /** Each spelling of the group, how many of the ids are its, and whether it is of the group's own name (not a shorter form joining it). */
  readonly spellings = new Map<string, { count: number; own: boolean }>();
  push(id: number) {
    if (this.length === this.ids.length) this.ids = doubled(this.ids);
    this.ids[this.length++] = id;
  }
  /** Spellings, the commonest first (where they tie, the group's own name's before a shorter form's, then the first read). */
  spelled(): string[] {
    return [...this.spellings].sort(([, a], [, b]) => b.count - a.count || Number(b.own) - Number(a.own)).map(([spelling]) => spelling);
  }
  /** Sorted, each id once (a group that merged spellings may hold a record twice). */
  done(): Int32Array {
    const ids = this.ids.subarray(0, this.length).sort();
    let kept = 0;
    for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[i - 1]) ids[kept++] = ids[i]!;
    return ids.slice(0, kept);
  }
}

/** Adds records (a comma-separated text of ids) to a value's group, as held under one spelling. */
type AddIds = (group: string, shown: string, ids: string, own?: boolean) => void;

/**
 * How the store reads each source a facet kind counts from (CountSource, formats/facet-kinds/):
 * a kind of an existing source needs nothing here.
 */
const countReaders: {
  readonly [S in CountSource['from']]: (
    db: Database.Database,
    deployment: Deployment,
    facet: FacetDef,
    source: Extract<CountSource, { from: S }>,
    add: AddIds,
  ) => void;
} = {
  dates(db, deployment, _facet, { field, group }, add) {
    const rows = db
      .prepare(`SELECT substr(${field}, 1, 4), group_concat(id) FROM ${tablesOf(deployment).records} WHERE ${field} IS NOT NULL GROUP BY 1`)
      .raw();
    for (const [year, ids] of rows.iterate() as Iterable<[string, string]>) {
      if (/^\d{4}$/.test(year)) add(group(year), group(year), ids);
    }
  },
  values(db, deployment, facet, _source, add) {
    const name = hasFacetRows(facet) ? facetKeyName(facet) : facet.key!;
    const folded = groupOf(facet);
    // A shorter form of a name counts with the longer one it joins (name-joins.ts).
    const joins = facet.fold === 'person' && facet.key ? storedJoins(db, deployment, facet.key) : undefined;
    // In value order, as the key's index holds them: of spellings held equally often, the first is shown.
    const rows = db.prepare(`SELECT value, group_concat(rec) FROM ${tablesOf(deployment).keys} WHERE name = ? GROUP BY value`).raw();
    for (const [value, ids] of rows.iterate(name) as Iterable<[string, string]>) {
      const own = folded(value);
      const longer = joins?.get(own);
      add(longer ?? own, value, ids, longer === undefined);
    }
  },
};

/**
 * A facet's values with their records. Each value's records come as one comma-separated
 * text (SQL's group_concat): stepping through a row per record and value costs about a
 * microsecond each, and a million records hold some 14 million values.
 */
function readFacet(db: Database.Database, deployment: Deployment, facet: FacetDef): IdList[] {
  const lists = new Map<string, IdList>();
  const add: AddIds = (group, shown, ids, own = true) => {
    let list = lists.get(group);
    if (!list) lists.set(group, (list = new IdList()));
    const before = list.length;
    let id = 0;
    for (let i = 0; i <= ids.length; i++) {
      const code = i < ids.length ? ids.charCodeAt(i) : 44;
      if (code !== 44) id = id * 10 + code - 48;
      else {
        list.push(id);
        id = 0;
      }
    }
    const spelling = list.spellings.get(shown);
    list.spellings.set(shown, { count: (spelling?.count ?? 0) + list.length - before, own: spelling?.own ?? own });
  };
  const source = countSourceOf(facet);
  countReaders[source.from](db, deployment, facet, source as never, add);
  return [...lists.values()];
}

/** A facet's values as readers see them (a group's commonest spelling), in code order. */
export function facetValues(db: Database.Database, deployment: Deployment, facet: FacetDef): string[] {
  return readFacet(db, deployment, facet).map((list) => list.spelled()[0]!);
}

/** The index of `facets` of a deployment, by the records that hold their values. */
export function loadFacetIndex(db: Database.Database, deployment: Deployment, facets: readonly FacetDef[], capacity: number): FacetIndex {
  const held = new Map<string, FacetCodes>();
  const lists: Int32Array[] = [];
  for (const facet of facets) {
    const values = readFacet(db, deployment, facet);
    const spelled = values.map((list) => list.spelled());
    const variants = new Map<number, string[]>();
    spelled.forEach((spellings, code) => spellings.length > 1 && variants.set(code, spellings));
    held.set(facet.name, {
      values: spelled.map((spellings) => spellings[0]!),
      firstCode: lists.length,
      ...(variants.size ? { variants } : {}),
    });
    for (const list of values) lists.push(list.done());
  }
  return facetIndexOf(held, lists, capacity);
}

/** A facet index from each value's sorted record ids (`lists`, in code order). */
export function facetIndexOf(facets: FacetIndex['facets'], lists: readonly Int32Array[], capacity: number): FacetIndex {
  const offsets = new Int32Array(capacity + 1);
  for (const ids of lists) for (let i = 0; i < ids.length; i++) offsets[ids[i]! + 1]!++;
  for (let r = 0; r < capacity; r++) offsets[r + 1]! += offsets[r]!;
  const codes = new Int32Array(offsets[capacity]!);
  const next = offsets.slice(0, capacity);
  lists.forEach((ids, code) => {
    for (let i = 0; i < ids.length; i++) codes[next[ids[i]!]!++] = code;
  });
  const joined = withJointCodes([...facets.values()], offsets, codes, lists.length);
  return {
    facets: new Map([...facets].map(([name, facet]) => [name, { ...facet, joint: joined.jointFacets.has(facet) }])),
    offsets: joined.offsets,
    codes: joined.codes,
    totals: Int32Array.from(lists, (ids) => ids.length),
    ...(joined.joint ? { joint: joined.joint } : {}),
  };
}

/** The same index with its arrays on shared memory, which every thread can read (one copy per generation, not per worker). */
export function onSharedMemory(index: FacetIndex): FacetIndex {
  const shared = (array: Int32Array) => {
    const copy = new Int32Array(new SharedArrayBuffer(array.byteLength));
    copy.set(array);
    return copy;
  };
  const { joint } = index;
  return {
    facets: index.facets,
    offsets: shared(index.offsets),
    codes: shared(index.codes),
    totals: shared(index.totals),
    ...(joint ? { joint: { base: joint.base, starts: shared(joint.starts), members: shared(joint.members) } } : {}),
  };
}
