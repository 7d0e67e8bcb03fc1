import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { facetIndexOf } from './facet-index';
import { pageOfCounts } from './pages';
import { foldText } from '../../../formats/fold-text';
import type { FacetRequest, FacetValueCount } from '../types';

/**
 * A page of values read from the counts against the obvious way: every listed value as an
 * object, sorted whole, sliced.
 */

const byValue = (a: FacetValueCount, b: FacetValueCount) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function expectedPage(values: readonly string[], counts: readonly number[], request: FacetRequest) {
  const wanted = request.contains ? foldText(request.contains) : '';
  const listed = values
    .map((value, i) => ({ value, count: counts[i]! }))
    .filter(({ value, count }) => count > 0 && (!wanted || foldText(value).includes(wanted)))
    .sort(request.sort === 'value' ? byValue : (a, b) => b.count - a.count || byValue(a, b));
  return { distinct: listed.length, values: listed.slice(request.offset, request.offset + request.limit) };
}

const scenario = fc
  .uniqueArray(fc.constantFrom('Müller', 'Mueller', 'Zhang', 'zhang', 'Ørsted', 'ITER', 'energy', 'Energy', 'NSTX', 'Éa', 'a', 'b'), {
    minLength: 1,
  })
  .chain((values) =>
    fc.record({
      values: fc.constant(values),
      // A preceding facet's codes, so the page must read its own from the right offset.
      before: fc.array(fc.nat(9), { maxLength: 3 }),
      counts: fc.array(fc.nat(4), { minLength: values.length, maxLength: values.length }),
      request: fc.record({
        name: fc.constant('f'),
        limit: fc.integer({ min: 1, max: 6 }),
        offset: fc.nat(6),
        sort: fc.constantFrom('count' as const, 'value' as const),
        contains: fc.option(fc.constantFrom('mu', 'ENER', 'ü', 'z', 'x'), { nil: undefined }),
      }),
    }),
  );

describe('pageOfCounts', () => {
  it('lists the largest counts (then A–Z) or A–Z, after the offset, as a full sort would', () => {
    fc.assert(
      fc.property(scenario, ({ values, before, counts, request }) => {
        const facets = new Map([
          ['e', { values: before.map(String), firstCode: 0 }],
          ['f', { values, firstCode: before.length }],
        ]);
        const index = facetIndexOf(
          facets,
          [...before, ...values].map(() => new Int32Array(0)),
          1,
        );
        const page = pageOfCounts(index, Int32Array.from([...before, ...counts]), 'f', request);
        expect(page).toEqual(expectedPage(values, counts, request));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the order of a thousand values with equal counts A–Z and pages through them without gaps', () => {
    const values = Array.from({ length: 1000 }, (_, i) => `value ${String(i).padStart(4, '0')}`).reverse();
    const index = facetIndexOf(
      new Map([['f', { values, firstCode: 0 }]]),
      values.map(() => new Int32Array(0)),
      1,
    );
    const counts = Int32Array.from(values, (_, i) => (i % 3 === 0 ? 7 : 2));
    const seen: string[] = [];
    for (let offset = 0; offset < 1000; offset += 100) {
      const page = pageOfCounts(index, counts, 'f', { name: 'f', limit: 100, offset, sort: 'count' });
      expect(page.distinct).toBe(1000);
      seen.push(...page.values.map(({ value }) => value));
    }
    expect(seen).toEqual(
      expectedPage(values, [...counts], { name: 'f', limit: 1000, offset: 0, sort: 'count' }).values.map(({ value }) => value),
    );
  });
});
