import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noInstances, PositionsWalk, postingsOf, type Instances } from './positions';

/**
 * A phrase walks a token's positions forward, skipping the documents that are not
 * candidates and reading the others, across the parts a list and its tail are stored in.
 */

/** (document, column, offset) triples of `docs` documents, each with 1–4 instances. */
const documents = fc.array(
  fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 4 }),
  {
    minLength: 1,
    maxLength: 60,
  },
);

/** Each document's instances, each once, in (column, offset) order. */
const instancesOf = (docs: readonly (readonly [number, number][])[]) =>
  docs.map((instances) =>
    [...new Map(instances.map(([column, offset]) => [`${column} ${offset}`, [column, offset]])).values()].sort(
      (a, b) => a[0]! - b[0]! || a[1]! - b[1]!,
    ),
  );

const triplesOf = (docs: readonly (readonly number[])[][]) =>
  Int32Array.from(docs.flatMap((instances, doc) => instances.flatMap(([column, offset]) => [doc, column!, offset!])));

const seen = (into: Instances) => Array.from({ length: into.length }, (_, i) => [into.columns[i], into.offsets[i]]);

describe('a positions walk', () => {
  it('reads every document it stops at as one walk over one part does, whatever it skips and wherever the parts split', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.array(fc.nat({ max: 5 }), { maxLength: 30 }), (docs, cut, steps) => {
        const expected = instancesOf(docs);
        const split = cut % (docs.length + 1);
        const parts = [postingsOf(triplesOf(expected.slice(0, split))).positions, postingsOf(triplesOf(expected.slice(split))).positions];
        const walk = new PositionsWalk({ parts, starts: [0, split] });
        const into = noInstances();
        for (const step of steps) {
          const doc = walk.doc + step;
          if (doc >= docs.length) break;
          walk.skipTo(doc);
          walk.read(into);
          expect(seen(into)).toEqual(expected[doc]);
          expect(walk.doc).toBe(doc + 1);
        }
      }),
    );
  });
});
