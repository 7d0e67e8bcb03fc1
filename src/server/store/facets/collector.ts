import type { IdSet } from '../../engine/id-set';
import { scratchArray } from '../../engine/scratch-arrays';
import type { FacetIndex } from './facet-index';
import { countPasses, type CountSharing } from './count-sharing';

/** One facet of a request: where its values' codes are, and the values whose counts are asked apart. */
export interface CollectedFacet {
  readonly name: string;
  /** The index of its values: the values records hold, or (a broader facet) the records each value selects. */
  readonly index: FacetIndex;
  /** Records of values counted one by one (the facet's selected and excluded values). */
  readonly checks: readonly IdSet[];
}

export interface CollectedCounts {
  /** Records matching the whole search, every facet's selection included. */
  readonly total: number;
  /**
   * Per facet, by code of its index (its own codes; the array is the index's scratch, valid
   * until the next request): records of the facet's search that hold the value.
   */
  readonly counts: readonly Int32Array[];
  /** Per facet, per check: records of the facet's search in it. */
  readonly checked: readonly (readonly number[])[];
}

/**
 * Every facet count of a request, as Lucene's drill-sideways collector does it. Each facet
 * is counted over the search with its own selection left out (the disjunctive counts): the
 * records every selection keeps count for every facet, in one pass over their value codes;
 * the records only one facet's selection leaves out (its "side") count for that facet
 * alone; a record two selections leave out counts for none. Which records are which is
 * worked out a machine word at a time over the sets, never record by record.
 *
 * `records` is the search without facet selections; `selections` the record sets of the
 * facets' own selections (any selected value and no excluded one). With `sharing`, another
 * thread may count half of the pass over the records every selection keeps.
 */
export function collectFacetCounts(
  records: IdSet,
  selections: readonly { readonly facet: string; readonly members: IdSet }[],
  facets: readonly CollectedFacet[],
  sharing?: CountSharing,
): CollectedCounts {
  const kept = selections.reduce((set, { members }) => set.and(members), records);
  const sideOf = (s: number) => selections.reduce((set, { members }, t) => (t === s ? set.andNot(members) : set.and(members)), records);
  const sides = new Map(selections.map(({ facet }, s) => [facet, sideOf(s)]));

  const indexes = [...new Set(facets.map((facet) => facet.index))];
  const total = kept.count();
  const keptCounts = countKept(indexes, kept, total, sharing);
  const shared = new Map(indexes.map((index, i) => [index, keptCounts[i]!]));
  const counts = facets.map(({ name, index }) => {
    const side = sides.get(name);
    return side ? withSideCodes(index, name, shared.get(index)!, idsOf(side)) : shared.get(index)!;
  });
  const checked = facets.map(({ name, checks }) => {
    const side = sides.get(name);
    const searched = side ? kept.or(side) : kept;
    return checks.map((check) => searched.and(check).count());
  });
  return { total, counts, checked };
}

// Arrays of a million entries are lent to one request at a time rather than allocated for
// each (scratch-arrays.ts): the engine counts one request's facets at a time.

/** The set's ids, ascending, in the collector's scratch array (on shared memory, for a helping thread to read). */
function idsOf(set: IdSet): Int32Array {
  const into = scratchArray(collectFacetCounts, 'ids', set.capacity, (length) => new Int32Array(new SharedArrayBuffer(length * 4)));
  return into.subarray(0, set.writeIds(into));
}

/**
 * Each index's value codes' numbers of records in `kept` (of `size` records), joint codes'
 * counts added to their values'. A search that keeps most records has its values counted
 * over the records it leaves out, from the totals: the pass is over whichever side is
 * smaller, so counts cost most at half the records, not all.
 */
function countKept(indexes: readonly FacetIndex[], kept: IdSet, size: number, sharing?: CountSharing): Int32Array[] {
  const complement = size > kept.capacity / 2;
  const ids = idsOf(complement ? kept.complement() : kept);
  const counts = indexes.map((index) => {
    const length = index.totals.length + (index.joint ? index.joint.starts.length - 1 : 0);
    return scratchArray(index, 'counts', length, (size) => new Int32Array(size)).fill(0);
  });
  countPasses(
    indexes.map(({ offsets, codes }) => ({ offsets, codes, ids })),
    counts,
    sharing,
  );
  return indexes.map((index, i) => {
    const counted = counts[i]!;
    addJointCounts(index, counted);
    if (complement) for (let code = 0; code < index.totals.length; code++) counted[code] = index.totals[code]! - counted[code]!;
    return counted;
  });
}

/** Adds each joint code's count to the values it stands for. */
function addJointCounts({ joint }: FacetIndex, counts: Int32Array): void {
  if (!joint) return;
  const { base, starts, members } = joint;
  for (let j = 0; j + 1 < starts.length; j++) {
    const count = counts[base + j]!;
    if (count) for (let m = starts[j]!; m < starts[j + 1]!; m++) counts[members[m]!]! += count;
  }
}

/** One facet's counts over the records every selection keeps (`shared`) plus its side's records (`ids`). */
function withSideCodes(index: FacetIndex, name: string, shared: Int32Array, ids: Int32Array): Int32Array {
  const facet = index.facets.get(name);
  const into = scratchArray(index, `side of ${name}`, shared.length, (length) => new Int32Array(length));
  if (!facet) return into;
  const first = facet.firstCode;
  const end = first + facet.values.length;
  into.set(shared.subarray(first, end), first);
  const { offsets, codes, joint } = index;
  if (facet.joint && joint) {
    // Its values are in the records' joint codes, which end their codes: those are counted, then their members.
    const { base, starts, members } = joint;
    const byJoint = scratchArray(joint, 'side', starts.length - 1, (length) => new Int32Array(length)).fill(0);
    for (let r = 0; r < ids.length; r++) {
      const id = ids[r]!;
      for (let k = offsets[id + 1]! - 1, start = offsets[id]!; k >= start && codes[k]! >= base; k--) byJoint[codes[k]! - base]!++;
    }
    for (let j = 0; j + 1 < starts.length; j++) {
      const count = byJoint[j]!;
      if (count)
        for (let m = starts[j]!; m < starts[j + 1]!; m++) if (members[m]! >= first && members[m]! < end) into[members[m]!]! += count;
    }
    return into;
  }
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r]!;
    // A record's codes ascend (facetIndexOf), so its codes of this facet end the walk.
    for (let k = offsets[id]!, last = offsets[id + 1]!; k < last; k++) {
      const code = codes[k]!;
      if (code >= end) break;
      if (code >= first) into[code]!++;
    }
  }
  return into;
}
