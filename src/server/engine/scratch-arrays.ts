/**
 * Arrays indexed by record id, kept between searches: one per owner (a postings reader)
 * and purpose, lent to one search at a time, since an engine runs one search at a time.
 * Allocated afresh for every search (8 MB of scores at a million records), their memory
 * lies outside V8's heap, and V8 answered its growth with a full garbage collection after
 * nearly every search. The borrower leaves the array as the purpose requires (all zeros,
 * say) or clears it first.
 */

type IdArray = Float64Array | Int32Array | Uint32Array;

const kept = new WeakMap<object, Map<string, IdArray>>();

/** The owner's array for `purpose`, of at least `length` entries, as the last borrower left it. */
export function scratchArray<T extends IdArray>(owner: object, purpose: string, length: number, create: (length: number) => T): T {
  let arrays = kept.get(owner);
  if (!arrays) kept.set(owner, (arrays = new Map<string, IdArray>()));
  const array = arrays.get(purpose) as T | undefined;
  if (array && array.length >= length) return array;
  const fresh = create(length);
  arrays.set(purpose, fresh);
  return fresh;
}
