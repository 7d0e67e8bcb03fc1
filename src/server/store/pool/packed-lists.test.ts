import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SharedPart } from '../engine';
import { PackedLists } from './packed-lists';
import { packPart, unpackPart, type PackedPart } from './packed-strings';

/**
 * A facet's spellings, packed for the workers, read back key by key without making the
 * whole map, and as a whole map once iterated or changed: the same arrays either way.
 */

type Lists = Map<number, string[]>;

const spelling = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('', 'Łódź', '𝔘nicode', 'a\u0000b'));
/** At least 16 keys (shorter maps are copied as they are), in any order, some of them not whole numbers. */
const lists: fc.Arbitrary<Lists> = fc
  .uniqueArray(fc.tuple(fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double({ noNaN: true })), fc.array(spelling, { maxLength: 4 })), {
    minLength: 16,
    maxLength: 60,
    selector: ([key]) => key,
    // As a Map compares its keys: 0 and -0 are one key.
    comparator: 'SameValueZero',
  })
  .map((entries) => new Map(entries));

function packedLists(map: Lists): PackedLists {
  const read = unpackPart(packPart({ words: new Map([['LIT', { map }]]) } as unknown as SharedPart)) as unknown as {
    words: Map<string, { map: PackedLists }>;
  };
  return read.words.get('LIT')!.map;
}

describe('a packed map of string arrays', () => {
  it('gives each key its strings, and none to a key it lacks, without making the map', () => {
    fc.assert(
      fc.property(lists, fc.array(fc.double({ noNaN: true }), { maxLength: 8 }), (map, others) => {
        const read = packedLists(map);
        expect(read).toBeInstanceOf(PackedLists);
        expect(read.size).toBe(map.size);
        for (const [key, strings] of map) {
          expect(read.has(key)).toBe(true);
          expect(read.get(key)).toEqual(strings);
        }
        for (const key of others.filter((other) => !map.has(other))) {
          expect(read.has(key)).toBe(false);
          expect(read.get(key)).toBeUndefined();
        }
        // Nothing made yet: it is handed on as it came.
        expect(read.packedAsRead).toBeDefined();
      }),
    );
  });

  it('iterates as the map it was, and is a map like any other once changed', () => {
    fc.assert(
      fc.property(lists, (map) => {
        const read = packedLists(map);
        expect([...read]).toEqual([...map]);
        expect(read.packedAsRead).toBeUndefined();
        const [first, second] = map.keys();
        let added = -6;
        while (map.has(added)) added--;
        read.delete(first!);
        read.delete(second!);
        read.set(added, ['added']);
        const changed = new Map(map);
        changed.delete(first!);
        changed.delete(second!);
        changed.set(added, ['added']);
        expect(new Map(read)).toEqual(changed);
        expect(read.size).toBe(changed.size);
        expect(read.get(added)).toEqual(['added']);
        expect(read.has(first!)).toBe(false);
        // Packed again, the change goes with it.
        const again = unpackPart(packPart({ words: new Map([['LIT', { map: read }]]) } as unknown as SharedPart)) as PackedPart & {
          words: Map<string, { map: Map<number, string[]> }>;
        };
        expect(new Map(again.words.get('LIT')!.map)).toEqual(changed);
      }),
    );
  });

  it('read by key, packs again as it came, without making its arrays', () => {
    const map: Lists = new Map(Array.from({ length: 20 }, (_, i) => [20 - i, [`name ${i}`, `Name ${i}`]]));
    const read = packedLists(map);
    expect(read.get(7)).toEqual(['name 13', 'Name 13']);
    const repacked = unpackPart(packPart({ words: new Map([['LIT', { map: read }]]) } as unknown as SharedPart)) as unknown as {
      words: Map<string, { map: PackedLists }>;
    };
    expect(repacked.words.get('LIT')!.map.packedAsRead).toBe(read.packedAsRead);
    expect(read.packedAsRead).toBeDefined();
  });
});
