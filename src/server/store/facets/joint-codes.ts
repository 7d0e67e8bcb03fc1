import { sharedInts } from '../part-memory';

/**
 * Joint codes, one per combination of a record's values of several single-valued facets
 * (its type, year, decade, language, country, ...): counting a search's facets adds one for
 * each code of each matching record, and a record's single-valued facets are most of its
 * codes but few combinations of them occur, so one joint code stands for several and the
 * combinations' counts are added to their values' at the end. (Which facets are single-
 * valued is read from the records, so the deployment table need not say.)
 */

/** Joint codes of a facet index: code `base + j` stands for `members[starts[j]]` up to `members[starts[j + 1]]`. */
export interface JointCodes {
  readonly base: number;
  readonly starts: Int32Array;
  readonly members: Int32Array;
}

/** At most this many combinations per joint code group: their counts stay in the processor's nearest cache. */
const combinationsPerGroup = 1024;

interface Facet {
  readonly firstCode: number;
  readonly values: readonly unknown[];
}

/** Whether each facet's records hold at most one of its values. */
function singleValued(facets: readonly Facet[], offsets: Int32Array, codes: Int32Array, codeCount: number): boolean[] {
  const facetOf = new Int32Array(codeCount);
  facets.forEach(({ firstCode, values }, f) => facetOf.fill(f, firstCode, firstCode + values.length));
  const single = facets.map(() => true);
  for (let r = 0; r + 1 < offsets.length; r++)
    for (let k = offsets[r]! + 1; k < offsets[r + 1]!; k++)
      if (facetOf[codes[k]!] === facetOf[codes[k - 1]!]) single[facetOf[codes[k]!]!] = false;
  return single;
}

/** The code each record holds of one facet, or -1. */
function codeOfEach(facet: Facet, offsets: Int32Array, codes: Int32Array): Int32Array {
  const end = facet.firstCode + facet.values.length;
  const held = new Int32Array(offsets.length - 1).fill(-1);
  for (let r = 0; r < held.length; r++)
    for (let k = offsets[r]!; k < offsets[r + 1]!; k++) if (codes[k]! >= facet.firstCode && codes[k]! < end) held[r] = codes[k]!;
  return held;
}

/**
 * Groups of single-valued facets, each facet added to the current group while the
 * combinations its records hold stay few: per group, each record's combination (0: none of
 * its facets) and each combination's codes.
 */
function groupsOf(facets: readonly Facet[], offsets: Int32Array, codes: Int32Array) {
  const groups: { facets: Facet[]; combination: Int32Array; members: number[][] }[] = [];
  for (const facet of facets) {
    const held = codeOfEach(facet, offsets, codes);
    const group = groups.at(-1);
    if (group) {
      const next = new Map<number, number>([[0, 0]]);
      const combination = new Int32Array(held.length);
      const stride = facet.values.length + 1;
      for (let r = 0; r < held.length && next.size <= combinationsPerGroup; r++) {
        const key = group.combination[r]! * stride + (held[r]! < 0 ? 0 : held[r]! - facet.firstCode + 1);
        let id = next.get(key);
        if (id === undefined) next.set(key, (id = next.size));
        combination[r] = id;
      }
      if (next.size <= combinationsPerGroup) {
        const members: number[][] = [];
        for (const [key, id] of next) {
          const value = key % stride;
          members[id] = [...(group.members[Math.floor(key / stride)] ?? []), ...(value ? [facet.firstCode + value - 1] : [])];
        }
        groups[groups.length - 1] = { facets: [...group.facets, facet], combination, members };
        continue;
      }
    }
    const ids = new Map<number, number>([[-1, 0]]);
    const combination = Int32Array.from(held, (code) => {
      let id = ids.get(code);
      if (id === undefined) ids.set(code, (id = ids.size));
      return id;
    });
    const members: number[][] = [];
    for (const [code, id] of ids) members[id] = code < 0 ? [] : [code];
    groups.push({ facets: [facet], combination, members });
  }
  return groups.filter((group) => group.facets.length > 1);
}

/**
 * A facet index's codes with its single-valued facets' codes replaced by joint codes, after
 * every other code of each record (so a record's codes still ascend); `joint` is undefined
 * where no two facets could be joined.
 */
export function withJointCodes(
  facets: readonly Facet[],
  offsets: Int32Array,
  codes: Int32Array,
  codeCount: number,
): { offsets: Int32Array; codes: Int32Array; joint?: JointCodes; jointFacets: ReadonlySet<Facet> } {
  const single = singleValued(facets, offsets, codes, codeCount);
  const groups = groupsOf(
    facets.filter((_, f) => single[f]),
    offsets,
    codes,
  );
  if (groups.length === 0) return { offsets, codes, jointFacets: new Set() };
  const jointFacets = new Set(groups.flatMap((group) => group.facets));
  const joined = new Uint8Array(codeCount);
  for (const { firstCode, values } of jointFacets) joined.fill(1, firstCode, firstCode + values.length);
  const groupBase: number[] = [];
  let jointCount = 0;
  for (const group of groups) {
    groupBase.push(codeCount + jointCount);
    jointCount += group.members.length;
  }
  const records = offsets.length - 1;
  // Two passes, counting then filling: the codes are tens of millions at a million records,
  // made once, on memory of their own (part-memory.ts), which the index is handed over from.
  const newOffsets = sharedInts(offsets.length);
  let n = 0;
  for (let r = 0; r < records; r++) {
    for (let k = offsets[r]!; k < offsets[r + 1]!; k++) if (!joined[codes[k]!]) n++;
    for (let g = 0; g < groups.length; g++) if (groups[g]!.combination[r]! !== 0) n++;
    newOffsets[r + 1] = n;
  }
  const newCodes = sharedInts(n);
  for (let r = 0, at = 0; r < records; r++) {
    for (let k = offsets[r]!; k < offsets[r + 1]!; k++) if (!joined[codes[k]!]) newCodes[at++] = codes[k]!;
    for (let g = 0; g < groups.length; g++) {
      const combination = groups[g]!.combination[r]!;
      if (combination !== 0) newCodes[at++] = groupBase[g]! + combination;
    }
  }
  const members = groups.flatMap((group) => group.members);
  const starts = new Int32Array(members.length + 1);
  members.forEach((codesOf, j) => (starts[j + 1] = starts[j]! + codesOf.length));
  return {
    offsets: newOffsets,
    codes: newCodes,
    joint: { base: codeCount, starts, members: Int32Array.from(members.flat()) },
    jointFacets,
  };
}
