import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeSkips,
  InstancesCursor,
  noInstances,
  positionSkips,
  PositionsWalk,
  postingsOf,
  readInstances,
  skipEvery,
  skipInstances,
  type Instances,
} from './positions';

/**
 * A phrase walks a token's positions forward, skipping the documents that are not
 * candidates (by their skips, then document by document) and reading the others, across
 * the parts a list and its tail are stored in.
 */

/** (document, column, offset) triples of `docs` documents, each with 1–4 instances. */
const documents = fc.array(
  fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3000 })), { minLength: 1, maxLength: 4 }),
  {
    minLength: 1,
    maxLength: 6 * skipEvery,
    size: 'max', // fast-check's default size would keep lists below one skip
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

/** A part as the store keeps it: the positions as written, and their skips as read back. */
const partOf = (docs: readonly (readonly number[])[][]) => {
  const { positions, skips } = postingsOf(triplesOf(docs));
  return { data: positions, skips: decodeSkips(skips) };
};

const seen = (into: Instances) => Array.from({ length: into.length }, (_, i) => [into.columns[i], into.offsets[i]]);

describe('a positions walk', () => {
  it('reads every document it stops at as one walk over one part does, whatever it skips and wherever the parts split', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.array(fc.nat({ max: 2 * skipEvery }), { maxLength: 30, size: 'max' }), (docs, cut, steps) => {
        const expected = instancesOf(docs);
        const split = cut % (docs.length + 1);
        const parts = [partOf(expected.slice(0, split)), partOf(expected.slice(split))];
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

  it('keeps the skips a write finds again from the positions alone', () => {
    fc.assert(
      fc.property(documents, (docs) => {
        const { data, skips } = partOf(instancesOf(docs));
        expect(skips).toHaveLength(Math.ceil(docs.length / skipEvery));
        expect(positionSkips(data)).toEqual(skips);
      }),
    );
  });
});

describe('the positions layout', () => {
  it("round-trips each document's instances, read whole, read one at a time or skipped, to the same ends", () => {
    fc.assert(
      fc.property(documents, fc.nat(), (docs, seed) => {
        const expected = instancesOf(docs);
        const { data } = partOf(expected);
        const into = noInstances();
        const cursor = new InstancesCursor();
        let at = 0;
        expected.forEach((instances, d) => {
          const end = readInstances(data, at, into);
          expect(seen(into)).toEqual(instances);
          expect(skipInstances(data, at)).toBe(end);
          // Read the first few one at a time, then skip the rest, as a walk that stops early does.
          cursor.seek(data, at);
          const n = cursor.document();
          expect(n).toBe(instances.length);
          const read = (seed + d) % (n + 1);
          for (let k = 0; k < read; k++) {
            cursor.instance();
            expect([cursor.column, cursor.offset]).toEqual(instances[k]);
          }
          cursor.skip(n - read);
          expect(cursor.at).toBe(end);
          at = end;
        });
        expect(at).toBe(data.length);
      }),
    );
  });
});
