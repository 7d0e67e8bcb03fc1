import { sharedCopy } from '../part-memory';
import { withJointCodes, type JointCodes } from './joint-codes';

/**
 * A deployment's facet values held in memory per generation, read from the facet columns
 * (column-reader.ts): every value of every facet has a code, and each record the codes of
 * its values, in one compressed-row array. Counting a search's values is then one
 * pass over its matching records, however many facets are asked for, with no SQL per request.
 */
export interface FacetIndex {
  /** Each facet's values, from code `firstCode` on; `joint` where its codes are held by joint codes. */
  readonly facets: ReadonlyMap<string, FacetCodes>;
  /** Records with id r hold the codes `codes[offsets[r]]` up to `codes[offsets[r + 1]]`, grouped by facet in code order. */
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
  return indexOfCodes(
    facets,
    offsets,
    codes,
    Int32Array.from(lists, (ids) => ids.length),
  );
}

/** A facet index from its records' codes (grouped by facet, in code order) and each code's records, joint codes made. */
export function indexOfCodes(facets: FacetIndex['facets'], offsets: Int32Array, codes: Int32Array, totals: Int32Array): FacetIndex {
  const joined = withJointCodes([...facets.values()], offsets, codes, totals.length);
  return {
    facets: new Map([...facets].map(([name, facet]) => [name, { ...facet, joint: joined.jointFacets.has(facet) }])),
    offsets: joined.offsets,
    codes: joined.codes,
    totals,
    ...(joined.joint ? { joint: joined.joint } : {}),
  };
}

/** The same index with its arrays on shared memory, which every thread can read (one copy per generation, not per worker). */
export function onSharedMemory(index: FacetIndex): FacetIndex {
  // Those read from the columns are made there already (column-reader.ts).
  const shared = (array: Int32Array) => (array.buffer instanceof SharedArrayBuffer ? array : sharedCopy(array));
  const { joint } = index;
  return {
    facets: index.facets,
    offsets: shared(index.offsets),
    codes: shared(index.codes),
    totals: shared(index.totals),
    ...(joint ? { joint: { base: joint.base, starts: shared(joint.starts), members: shared(joint.members) } } : {}),
  };
}
