import { foldText } from '../../../formats/fold-text';
import type { FacetIndex } from './facet-index';
import type { FacetRequest, FacetValueCount } from '../types';

/** What a facet's values need for paging, worked out once per index: their A–Z ranks and folded text. */
export interface FacetOrder {
  /** Codes of the facet's values (relative to its first code) in A–Z order. */
  readonly byValue: Int32Array;
  /** Each value's place in `byValue`. */
  readonly rank: Int32Array;
  folded?: readonly string[];
}

const orders = new WeakMap<FacetIndex, Map<string, FacetOrder>>();

function orderOf(index: FacetIndex, name: string, values: readonly string[]): FacetOrder {
  let perFacet = orders.get(index);
  if (!perFacet) orders.set(index, (perFacet = new Map<string, FacetOrder>()));
  let order = perFacet.get(name);
  if (!order) {
    const byValue = Int32Array.from(values.keys()).sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
    const rank = new Int32Array(values.length);
    byValue.forEach((code, place) => (rank[code] = place));
    perFacet.set(name, (order = { byValue, rank }));
  }
  return order;
}

const byText = (values: readonly string[]) => (a: number, b: number) =>
  values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b;

/** An order of a facet's values after the values `touched` changed or came (column-update.ts): merged into the one before, not sorted again. */
export function mergedOrder(before: FacetOrder, values: readonly string[], touched: ReadonlySet<number>): FacetOrder {
  const compare = byText(values);
  const moving = [...touched].sort(compare);
  const byValue = new Int32Array(values.length);
  let n = 0;
  let m = 0;
  for (const code of before.byValue) {
    if (touched.has(code)) continue;
    while (m < moving.length && compare(moving[m]!, code) < 0) byValue[n++] = moving[m++]!;
    byValue[n++] = code;
  }
  while (m < moving.length) byValue[n++] = moving[m++]!;
  const rank = new Int32Array(values.length);
  byValue.forEach((code, place) => (rank[code] = place));
  return { byValue, rank };
}

/** Orders every facet's values once (A–Z over a million authors is not a request's work); returns the orders. */
export function prepareFacetPages(index: FacetIndex): ReadonlyMap<string, FacetOrder> {
  for (const [name, { values }] of index.facets) orderOf(index, name, values);
  return orders.get(index) ?? new Map<string, FacetOrder>();
}

/** Takes the orders another thread worked out for the same index (prepareFacetPages there), instead of sorting again. */
export function adoptFacetPages(index: FacetIndex, given: ReadonlyMap<string, FacetOrder>): void {
  orders.set(index, new Map([...given].map(([name, { byValue, rank }]) => [name, { byValue, rank }])));
}

/**
 * One page of a facet's values, by count (then A–Z) or A–Z, and how many distinct values
 * the search has, read straight from the collector's counts: a facet of a million authors
 * makes objects only for the page it shows. Only values some matching record holds are
 * listed, and with `facet_contains` only those whose folded text contains it.
 */
export function pageOfCounts(
  index: FacetIndex,
  counts: Int32Array,
  name: string,
  request: FacetRequest,
): { distinct: number; values: FacetValueCount[] } {
  const facet = index.facets.get(name);
  if (!facet) return { distinct: 0, values: [] };
  const { values, firstCode, variants } = facet;
  const order = orderOf(index, name, values);
  const wanted = request.contains ? foldText(request.contains) : '';
  if (wanted) order.folded ??= values.map(foldText);
  const listed = (code: number) => counts[firstCode + code]! > 0 && (!wanted || order.folded![code]!.includes(wanted));
  const needed = request.offset + request.limit;
  const page: number[] = [];
  let distinct = 0;
  if (request.sort === 'value') {
    for (const code of order.byValue) {
      if (!listed(code)) continue;
      if (distinct >= request.offset && distinct < needed) page.push(code);
      distinct++;
    }
  } else {
    // The largest `needed` keys in a min-heap; a key orders by count, then A–Z, as one number.
    const scale = values.length;
    const heap = new TopKeys(Math.min(needed, values.length));
    for (let code = 0; code < values.length; code++) {
      if (!listed(code)) continue;
      distinct++;
      heap.offer(counts[firstCode + code]! * scale + (scale - 1 - order.rank[code]!));
    }
    for (const key of heap.descending().slice(request.offset)) page.push(order.byValue[scale - 1 - (key % scale)]!);
  }
  return {
    distinct,
    values: page.map((code) => {
      const spellings = variants?.get(code);
      return { value: values[code]!, count: counts[firstCode + code]!, ...(spellings ? { variants: spellings } : {}) };
    }),
  };
}

/** The `size` largest numbers offered, kept in a binary min-heap whose root is the one to beat. */
class TopKeys {
  private readonly keys: Float64Array;
  private length = 0;
  constructor(private readonly size: number) {
    this.keys = new Float64Array(size);
  }

  offer(key: number) {
    const keys = this.keys;
    if (this.length < this.size) {
      let at = this.length++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (keys[parent]! <= key) break;
        keys[at] = keys[parent]!;
        at = parent;
      }
      keys[at] = key;
    } else if (this.size > 0 && key > keys[0]!) {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= this.length) break;
        if (child + 1 < this.length && keys[child + 1]! < keys[child]!) child++;
        if (keys[child]! >= key) break;
        keys[at] = keys[child]!;
        at = child;
      }
      keys[at] = key;
    }
  }

  descending(): Float64Array {
    return this.keys.slice(0, this.length).sort().reverse();
  }
}
