import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchColumns } from '../../../deployments/schema';
import { eachPairIn, pairColumns, type WordInstances } from './pairs';
import { noInstances, weights, wholeRecord } from './positions';

/**
 * Pair enumeration against the definition: a pair is two common words at adjacent offsets
 * of one column of one record, counted with the column's weight over whole records and, in
 * `pairColumns`, in the column. Records hold their common words close together (titles,
 * abstracts) or few and far apart (one word deep in a full text), which are found by two
 * different ways.
 */

/** A record's common words: (column, offset, word), each place once. */
type Place = readonly [number, number, number];

const words = 6;

const placesArbitrary = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: searchColumns.length - 1 }),
      fc.oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 300_000 })),
      fc.integer({ min: 0, max: words - 1 }),
    ),
    { maxLength: 40 },
  )
  .map((places) => [...new Map(places.map((place) => [`${place[0]} ${place[1]}`, place as Place])).values()]);

/** Word `w`'s instances in each record that holds it, in (column, offset) order. */
function instancesOf(records: readonly (readonly Place[])[], w: number): WordInstances {
  return {
    each(visit) {
      records.forEach((places, doc) => {
        const mine = places.filter(([, , word]) => word === w).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
        if (mine.length === 0) return;
        const instances = noInstances();
        instances.columns = Int32Array.from(mine, ([column]) => column);
        instances.offsets = Int32Array.from(mine, ([, offset]) => offset);
        instances.length = mine.length;
        visit(doc, instances);
      });
    },
  };
}

/** Each pair's lists as "first second|col" → [record, count] entries, by the definition. */
function expectedPairs(records: readonly (readonly Place[])[]): Map<string, [number, number][]> {
  const lists = new Map<string, [number, number][]>();
  records.forEach((places, doc) => {
    const at = new Map(places.map(([column, offset, word]) => [`${column} ${offset}`, word]));
    for (const [column, offset, word] of [...places].sort((x, y) => x[0] - y[0] || x[1] - y[1])) {
      const next = at.get(`${column} ${offset + 1}`);
      if (next === undefined) continue;
      for (const scope of [wholeRecord, ...pairColumns.filter((kept) => kept === searchColumns[column])]) {
        const key = `${word} ${next}|${scope}`;
        const list = lists.get(key) ?? lists.set(key, []).get(key)!;
        const last = list[list.length - 1];
        if (last && last[0] === doc) last[1] += weights[column]!;
        else list.push([doc, weights[column]!]);
      }
    }
  });
  return lists;
}

describe('pair lists', () => {
  it('hold every adjacent pair of common words, in records whose words are close or far apart', () => {
    fc.assert(
      fc.property(fc.array(placesArbitrary, { minLength: 1, maxLength: 30 }), (records) => {
        const found = new Map<string, [number, number][]>();
        eachPairIn(
          Array.from({ length: words }, (_, w) => instancesOf(records, w)),
          0,
          records.length,
          (first, second, lists) => {
            for (const [column, { ids, counts }] of lists) {
              found.set(
                `${first} ${second}|${column}`,
                Array.from(ids, (id, i) => [id, counts[i]!]),
              );
            }
          },
        );
        expect(found).toEqual(expectedPairs(records));
      }),
      { numRuns: 300 },
    );
  });
});
