import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectFacetCounts } from './collector';
import { facetIndexOf } from './facet-index';
import { IdSet } from '../../engine/id-set';

/**
 * The one-pass collector against counting each facet over its own search: the search's
 * records kept by every selection but the facet's own, one value at a time.
 */

const capacity = 40;
const few = fc.uniqueArray(fc.integer({ min: 0, max: capacity - 1 }), { maxLength: capacity }).map((list) => list.sort((a, b) => a - b));
/** Few records, or all but a few (which are counted over the records left out). */
const ids = fc.oneof(
  few,
  few.map((left) => Array.from({ length: capacity }, (_, id) => id).filter((id) => !left.includes(id))),
);
const facetNames = ['a', 'b', 'c'] as const;

/** A facet whose records hold at most one of its values, as lists of each value's records: such facets share joint codes. */
const singleValued = fc
  .array(fc.integer({ min: -1, max: 3 }), { minLength: capacity, maxLength: capacity })
  .map((valueOf) => [0, 1, 2, 3].map((v) => valueOf.flatMap((held, id) => (held === v ? [id] : []))));

const scenario = fc.record({
  // Per facet, per value, the records holding it.
  values: fc.tuple(...facetNames.map(() => fc.oneof(fc.array(ids, { minLength: 1, maxLength: 5 }), singleValued))),
  records: ids,
  selected: fc.subarray([...facetNames]),
  selectionIds: fc.tuple(...facetNames.map(() => ids)),
  checkIds: fc.array(ids, { maxLength: 3 }),
});

describe('collectFacetCounts', () => {
  it('counts every facet over the search without its own selection, in one pass', () => {
    let jointRuns = 0;
    // Searches keeping over half the records, whose values are counted over the records left out.
    let mostRuns = 0;
    fc.assert(
      fc.property(scenario, ({ values, records, selected, selectionIds, checkIds }) => {
        const facets = new Map<string, { values: string[]; firstCode: number }>();
        const lists: Int32Array[] = [];
        facetNames.forEach((name, f) => {
          facets.set(name, { values: values[f]!.map((_, v) => `${name}${v}`), firstCode: lists.length });
          for (const holders of values[f]!) lists.push(Int32Array.from(holders));
        });
        const index = facetIndexOf(facets, lists, capacity);
        if (index.joint) jointRuns++;
        const selections = selected.map((facet) => ({ facet, ids: selectionIds[facetNames.indexOf(facet)]! }));
        const checks = checkIds.map((list) => IdSet.of(list, capacity));
        const collected = collectFacetCounts(
          IdSet.of(records, capacity),
          selections.map(({ facet, ids: kept }) => ({ facet, members: IdSet.of(kept, capacity) })),
          facetNames.map((name) => ({ name, index, checks })),
        );

        const keptBy = (others: typeof selections) => records.filter((id) => others.every(({ ids: kept }) => kept.includes(id)));
        expect(collected.total).toBe(keptBy(selections).length);
        if (collected.total > capacity / 2) mostRuns++;
        facetNames.forEach((name, f) => {
          const base = keptBy(selections.filter(({ facet }) => facet !== name));
          const { firstCode, values: names } = facets.get(name)!;
          names.forEach((_, v) => {
            expect(collected.counts[f]![firstCode + v]).toBe(base.filter((id) => lists[firstCode + v]!.includes(id)).length);
          });
          expect(collected.checked[f]).toEqual(checks.map((set) => base.filter((id) => set.has(id)).length));
        });
      }),
      { numRuns: 300 },
    );
    expect(jointRuns).toBeGreaterThan(30);
    expect(mostRuns).toBeGreaterThan(30);
  });
});
