import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { maxKeyChars } from '../../../formats/keys';
import { tablesOf } from '../sqlite/schema';
import { decodeBlock, type DecodedBlock } from './code-blocks';
import { bySpelling, joinsFor, type Spelling } from './column-groups';
import { concatBlocks, type ColumnState } from './column-reader';
import type { FacetCodes } from './facet-index';
import { joinedNames } from './name-joins';

/**
 * One facet column as a write changed it since the index before (column-update.ts): the
 * dictionary read from its first new code on, the blocks whose stored bytes changed decoded
 * (the old bytes too, to take their records' values out of the counts), and the groups whose
 * values came, went or changed counts worked out again, a person's name's joins over its
 * surname's names only. A group keeps its place; a new one goes after the others, and one no
 * record holds any longer stays, counting none.
 */
export interface ColumnChange {
  readonly facet: FacetDef;
  /** The facet in the index before. */
  readonly old: FacetCodes;
  readonly state: ColumnState;
  readonly stored: readonly (Uint8Array | undefined)[];
  /** Blocks whose stored bytes changed, decoded; others are added as they are decoded. */
  readonly decoded: Map<number, DecodedBlock | undefined>;
  /** Each group's commonest spelling, and its others where it has more than one. */
  readonly values: readonly string[];
  readonly variants: ReadonlyMap<number, readonly string[]>;
  /** Groups whose spellings changed, and new ones. */
  readonly touched: ReadonlySet<number>;
  /** Groups of the index before that a name left as its join changed: their records are worked out again. */
  readonly moved: readonly number[];
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** The surname a person's name is joined under (name-joins.ts), or undefined where it has none. */
function surnameOf(folded: string): string | undefined {
  const name = folded.slice(0, maxKeyChars);
  const comma = name.indexOf(', ');
  return comma > 0 ? name.slice(0, comma) : undefined;
}

interface Blocks {
  readonly values: string[];
  readonly folded: string[];
  readonly held: Int32Array;
  readonly stored: Uint8Array[];
  readonly decoded: Map<number, DecodedBlock | undefined>;
  /** Values whose number of records may have changed. */
  readonly changed: Set<number>;
}

/** The dictionary's new values and the blocks a write changed, with each value's records counted again; a string where it cannot follow. */
function readChanged(db: Database.Database, deployment: Deployment, facet: FacetDef, old: ColumnState): Blocks | string {
  const t = tablesOf(deployment);
  const values = old.values.slice();
  const folded = old.folded.slice();
  const dictionary = db.prepare(`SELECT code, value, grp FROM ${t.facetDict} WHERE facet = ? AND code >= ?`).raw();
  for (const [code, value, group] of dictionary.iterate(facet.name, values.length) as Iterable<[number, string, string]>) {
    values[code] = value;
    folded[code] = group;
  }
  for (let code = old.values.length; code < values.length; code++) if (values[code] === undefined) return 'a dictionary with a gap';
  const held = new Int32Array(values.length);
  held.set(old.held);
  const stored: Uint8Array[] = [];
  const decoded = new Map<number, DecodedBlock | undefined>();
  const changed = new Set<number>();
  const count = (codes: Int32Array, by: number) => {
    for (const code of codes) {
      held[code]! += by;
      changed.add(code);
    }
  };
  const oldBlocks = old.ends.length - 1;
  const rows = db.prepare(`SELECT block, data FROM ${t.facetBlocks} WHERE facet = ?`).raw().iterate(facet.name);
  for (const [block, data] of rows as Iterable<[number, Uint8Array]>) {
    stored[block] = data;
    const before = block < oldBlocks ? old.data.subarray(old.ends[block], old.ends[block + 1]) : undefined;
    if (before && sameBytes(before, data)) continue;
    if (before?.length) count(decodeBlock(before).codes, -1);
    const after = decodeBlock(data);
    decoded.set(block, after);
    count(after.codes, 1);
  }
  for (let block = 0; block < oldBlocks; block++) if (old.ends[block + 1]! > old.ends[block]! && !stored[block]) return 'a block removed';
  return { values, folded, held, stored, decoded, changed };
}

interface Groups {
  readonly groupOf: Int32Array;
  readonly keys: string[];
  readonly touched: Set<number>;
  readonly moved: number[];
}

/** Each value's group after the write: values that came (or whose join changed) join a group by its name, or start one. */
function regroup(facet: FacetDef, old: ColumnState, { folded, held, changed }: Blocks): Groups {
  const groupOf = new Int32Array(held.length).fill(-1);
  groupOf.set(old.groupOf);
  const keys = old.keys.slice();
  const touched = new Set<number>();
  const arrived: number[] = [];
  const moved: number[] = [];
  let left = false;
  for (const code of changed) {
    const was = code < old.held.length ? old.held[code]! : 0;
    if (!was && held[code]) arrived.push(code);
    else if (was && !held[code]) {
      touched.add(groupOf[code]!);
      groupOf[code] = -1;
      left = true;
    } else if (was !== held[code]) touched.add(groupOf[code]!);
  }
  let keyOf = (code: number) => folded[code]!;
  if (joinsFor(facet) && (arrived.length || left)) {
    const joined = joinsOver(folded, held, changed);
    keyOf = joined.keyOf;
    // A name whose join changed goes to its new group, and the records holding its old one are worked out again.
    for (const code of joined.codes) {
      const group = groupOf[code]!;
      if (group < 0 || keys[group] === keyOf(code)) continue;
      moved.push(group);
      touched.add(group);
      groupOf[code] = -1;
      arrived.push(code);
    }
  }
  const found = new Map<string, number>(arrived.map((code) => [keyOf(code), -1]));
  keys.forEach((key, group) => found.has(key) && found.set(key, group));
  for (const code of arrived) {
    const key = keyOf(code);
    let group = found.get(key)!;
    if (group < 0) {
      found.set(key, (group = keys.length));
      keys.push(key);
    }
    groupOf[code] = group;
    touched.add(group);
  }
  return { groupOf, keys, touched, moved };
}

/** The joins of the names of the surnames of the `changed` values (joins are decided within a surname), and the values held under them. */
function joinsOver(folded: readonly string[], held: Int32Array, changed: Iterable<number>) {
  const surnames = new Set<string>();
  for (const code of changed) {
    const surname = surnameOf(folded[code]!);
    if (surname !== undefined) surnames.add(surname);
  }
  const names = new Set<string>();
  const codes: number[] = [];
  for (let code = 0; code < folded.length; code++) {
    if (!held[code]) continue;
    const surname = surnameOf(folded[code]!);
    if (surname === undefined || !surnames.has(surname)) continue;
    codes.push(code);
    names.add(folded[code]!.slice(0, maxKeyChars));
  }
  const joins = joinedNames(names);
  return { codes, keyOf: (code: number) => joins.get(folded[code]!) ?? folded[code]! };
}

/** One facet column as changed since the index before, or why it cannot be followed. */
export function changeOf(
  db: Database.Database,
  deployment: Deployment,
  facet: FacetDef,
  old: ColumnState,
  oldCodes: FacetCodes,
): ColumnChange | string {
  const blocks = readChanged(db, deployment, facet, old);
  if (typeof blocks === 'string') return blocks;
  const { values, folded, held, stored, decoded } = blocks;
  const { groupOf, keys, touched, moved } = regroup(facet, old, blocks);
  const isTouched = new Uint8Array(keys.length);
  for (const group of touched) isTouched[group] = 1;
  const members = new Map<number, Spelling[]>([...touched].map((group) => [group, []]));
  for (let code = 0; code < values.length; code++) {
    const group = groupOf[code]!;
    if (group >= 0 && isTouched[group])
      members.get(group)!.push({ value: values[code]!, records: held[code]!, own: keys[group] === folded[code] });
  }
  const shown = oldCodes.values.slice();
  const variants = new Map(oldCodes.variants);
  for (const [group, spellings] of members) {
    if (!spellings.length) {
      variants.delete(group);
      continue;
    }
    const sorted = spellings.sort(bySpelling).map(({ value }) => value);
    shown[group] = sorted[0]!;
    if (sorted.length > 1) variants.set(group, sorted);
    else variants.delete(group);
  }
  const state = { values, folded, held, groupOf, keys, ...concatBlocks(stored) };
  return { facet, old: oldCodes, state, stored, decoded, values: shown, variants, touched, moved };
}
