import type { FacetIndex } from './facet-index';

/** Membership of a record id: an IdSet, or the engine's final match set once it is a bitset. */
export interface Members {
  has(id: number): boolean;
}

/** One facet of a request: where its values' codes are, and the values whose counts are asked apart. */
export interface CollectedFacet {
  readonly name: string;
  /** The index of its values: the values records hold, or (a broader facet) the records each value selects. */
  readonly index: FacetIndex;
  /** Records of values counted one by one (the facet's selected and excluded values). */
  readonly checks: readonly Members[];
}

export interface CollectedCounts {
  /** Records matching the whole search, every facet's selection included. */
  readonly total: number;
  /** Per facet, by code of its index: records of the facet's search that hold the value. */
  readonly counts: readonly Int32Array[];
  /** Per facet, per check: records of the facet's search in it. */
  readonly checked: readonly (readonly number[])[];
}

/**
 * Every facet count of a request in one pass over the records of the search without
 * facet selections, as Lucene's drill-sideways collector does. Each facet is counted over
 * the search with its own selection left out (the disjunctive counts): a record kept by
 * every selection counts for every facet; a record that only one facet's selection leaves
 * out counts for that facet alone; a record two selections leave out counts for none.
 *
 * `records` are the search's ids without selections, ascending; `selections` the record
 * sets of the facets' own selections (any selected value and no excluded one).
 */
export function collectFacetCounts(
  records: ArrayLike<number>,
  selections: readonly { readonly facet: string; readonly members: Members }[],
  facets: readonly CollectedFacet[],
): CollectedCounts {
  const indexes = [...new Set(facets.map((facet) => facet.index))];
  const shared = indexes.map((index) => new Int32Array(index.totals.length));
  // A facet with a selection of its own also counts the records only that selection leaves out.
  const sides = selections.map(({ facet }) => {
    const own = facets.map((candidate, i) => (candidate.name === facet ? i : -1)).filter((i) => i >= 0);
    return own.map((i) => ({ facet: i, index: facets[i]!.index, counts: new Int32Array(facets[i]!.index.totals.length) }));
  });
  const checked = facets.map((facet) => facet.checks.map(() => 0));
  let total = 0;
  for (let r = 0; r < records.length; r++) {
    const id = records[r]!;
    let missed = -1;
    for (let s = 0; s < selections.length; s++) {
      if (selections[s]!.members.has(id)) continue;
      if (missed >= 0) {
        missed = -2;
        break;
      }
      missed = s;
    }
    if (missed === -2) continue;
    if (missed === -1) {
      total++;
      for (let i = 0; i < indexes.length; i++) addCodes(indexes[i]!, id, shared[i]!);
      for (let f = 0; f < facets.length; f++) check(facets[f]!, id, checked[f]!);
    } else {
      for (const side of sides[missed]!) {
        addCodes(side.index, id, side.counts);
        check(facets[side.facet]!, id, checked[side.facet]!);
      }
    }
  }
  const counts = facets.map((facet) => shared[indexes.indexOf(facet.index)]!);
  for (const side of sides.flat()) {
    const sum = counts[side.facet]!.slice();
    for (let code = 0; code < sum.length; code++) sum[code]! += side.counts[code]!;
    counts[side.facet] = sum;
  }
  return { total, counts, checked };
}

function addCodes({ offsets, codes }: FacetIndex, id: number, into: Int32Array) {
  for (let k = offsets[id]!, end = offsets[id + 1]!; k < end; k++) into[codes[k]!]!++;
}

function check(facet: CollectedFacet, id: number, into: number[]) {
  for (let c = 0; c < facet.checks.length; c++) if (facet.checks[c]!.has(id)) into[c]!++;
}
