import type { FacetDef } from '../../../deployments/facets';
import { maxKeyChars } from '../../../formats/keys';
import { joinedNames } from './name-joins';

/**
 * How a facet column's values (facet-columns.ts: as records hold them) count as the values a
 * facet lists: values compare as their parameter does (facet-values.ts `groupOf`, kept in
 * the dictionary beside each value), a shorter
 * form of a person's name counts with the longer one it joins (name-joins.ts, over the names
 * records hold now), and a group shows its commonest spelling. Worked out over the
 * dictionary, whose values are far fewer than the records' codes.
 */
export interface ColumnGroups {
  /** Each stored value's group, by the value's code; -1 for a value no record holds now. */
  readonly groupOf: Int32Array;
  /** Each group's spellings, the commonest first (where they tie, the group's own name's before a shorter form's, then A–Z). */
  readonly spellings: readonly (readonly string[])[];
  /** Each group's name: the folded value its spellings share, or the longer name a shorter form joins. */
  readonly keys: readonly string[];
}

export interface Spelling {
  readonly value: string;
  readonly records: number;
  readonly own: boolean;
}

export const bySpelling = (a: Spelling, b: Spelling) =>
  b.records - a.records || Number(b.own) - Number(a.own) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** Whether a facet's shorter forms of a name count with the longer one they join. */
export const joinsFor = (facet: FacetDef) => facet.fold === 'person' && facet.key !== undefined;

/** The joins of the names records hold (`held[code]` of them), over the names as their keys hold them (name-joins.ts). */
export function joinsOf(folded: readonly string[], held: Int32Array, only?: (code: number) => boolean): Map<string, string> {
  const names = new Set<string>();
  folded.forEach((group, code) => held[code] && (!only || only(code)) && names.add(group.slice(0, maxKeyChars)));
  return joinedNames(names);
}

/** Groups of a facet's `values` (by code, each in the group `folded` holds), `held[code]` being how many records hold each. */
export function columnGroups(facet: FacetDef, values: readonly string[], folded: readonly string[], held: Int32Array): ColumnGroups {
  // A shorter form of a name counts with the longer one it joins, over the names as their keys hold them (name-joins.ts).
  const joins = joinsFor(facet) ? joinsOf(folded, held) : undefined;
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const members: Spelling[][] = [];
  const groups = new Int32Array(values.length).fill(-1);
  values.forEach((value, code) => {
    if (!held[code]) return;
    const own = folded[code]!;
    const longer = joins?.get(own);
    const group = longer ?? own;
    let id = ids.get(group);
    if (id === undefined) {
      ids.set(group, (id = members.length));
      members.push([]);
      keys.push(group);
    }
    members[id]!.push({ value, records: held[code], own: longer === undefined });
    groups[code] = id;
  });
  return { groupOf: groups, spellings: members.map((spellings) => spellings.sort(bySpelling).map(({ value }) => value)), keys };
}
