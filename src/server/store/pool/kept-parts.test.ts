import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import type { SharedPart } from '../engine';
import { openEngine } from '../sqlite/query-engine';
import { openStoreWriter } from '../sqlite/sqlite';
import { earlierWords, keepParts, keptParts, keptPlaceOf } from './kept-parts';
import { packPart, unpackPart, type PackedPart } from './packed-strings';

/**
 * What a generation's reader keeps for a restart on the same data reads back as it made it:
 * the facet values with their orders, the type-ahead tables and the vocabularies of a real
 * store, every typed array on shared memory; a file of another revision or of other code is
 * not read, and one cut short gives the parts before the cut.
 */

let dir: string;
let parts: SharedPart[];
let revision: string;
const script = new URL('file:///cache/store-worker-0123456789abcdef.cjs');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kept-parts-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  try {
    for (const deployment of deployments.slice(0, 2)) writer.put(deployment.key, generateRecords(deployment, 300, { seed: 3 }));
  } finally {
    writer.close();
  }
  const engine = openEngine(path, { snapshot: true });
  try {
    revision = engine.revision;
    parts = [{ facets: engine.sharedFacets() }];
    for (const { key } of deployments) parts.push({ completions: engine.sharedCompletions(key) }, { words: engine.sharedWords(key) });
  } finally {
    engine.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const placeIn = (name: string) => ({ ...keptPlaceOf(join(dir, name), script), file: join(dir, `${name}.parts`) });

function keep(name: string, packed: readonly PackedPart[], file?: string) {
  const place = placeIn(name);
  const keeper = keepParts(place, revision, file);
  for (const part of packed) keeper.add(part);
  keeper.done();
  return place;
}

function readAll(iterator: Iterator<PackedPart> | undefined): PackedPart[] | undefined {
  if (!iterator) return undefined;
  const read: PackedPart[] = [];
  for (let next = iterator.next(); !next.done; next = iterator.next()) read.push(next.value);
  return read;
}

/** Every typed array in a value. */
function typedArrays(value: unknown, found: ArrayBufferView[] = []): ArrayBufferView[] {
  if (ArrayBuffer.isView(value)) found.push(value);
  else if (value instanceof Map) for (const item of value.values()) typedArrays(item, found);
  else if (Array.isArray(value)) for (const item of value) typedArrays(item, found);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) typedArrays(item, found);
  return found;
}

/** `value` with every map as a plain Map, as a packed map is read back as a map of its own kind (packed-lists.ts). */
function withPlainMaps(value: unknown): unknown {
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, withPlainMaps(item)]));
  if (Array.isArray(value)) return value.map(withPlainMaps);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPlainMaps(item)]));
  return value;
}

const readBack = (part: PackedPart) => withPlainMaps(unpackPart(part));

describe('kept parts', () => {
  it('read back as made, on shared memory, with a real store’s values', () => {
    expect(parts[0]).toHaveProperty('facets');
    const place = keep('same.db', parts.map(packPart));
    const read = readAll(keptParts(place, revision))!;
    expect(read.map(readBack)).toEqual(parts);
    const arrays = read.flatMap((part) => typedArrays(part));
    expect(arrays.length).toBeGreaterThan(10);
    expect(arrays.every((array) => array.buffer instanceof SharedArrayBuffer)).toBe(true);
  });

  it('are not read for another revision or by other code', () => {
    const place = keep('other.db', parts.map(packPart));
    expect(keptParts(place, 'another revision')).toBeUndefined();
    expect(keptParts({ ...place, version: 'store-worker-fedcba9876543210.cjs' }, revision)).toBeUndefined();
    expect(keptParts({ ...place, file: join(dir, 'none.parts') }, revision)).toBeUndefined();
  });

  it('give a write in place the vocabularies of the revision before, and no other file', () => {
    const place = keep('earlier.db', parts.map(packPart), '1:2:3');
    const words = new Map(parts.flatMap((part) => ('words' in part ? [...part.words] : [])));
    expect(words.size).toBe(2);
    expect(earlierWords(place, '1:2:3')()).toEqual(words);
    expect(earlierWords(place, '1:2:4')().size).toBe(0);
  });

  it('of many megabytes read back exactly, whole or cut short', () => {
    // Read a megabyte at a time on their way to shared memory: arrays over several reads, one ending mid-read.
    const ranks = Int32Array.from({ length: 3 * 262_144 + 5 }, (_, i) => (i * 2_654_435_761) | 0);
    const large = { ranks: new Map([['LIT', { ranks, count: ranks.length }]]) } as unknown as PackedPart;
    const place = keep('large.db', [large, packPart(parts[0]!)]);
    const read = readAll(keptParts(place, revision))!;
    expect(read).toHaveLength(2);
    const readRanks = (read[0] as unknown as { ranks: Map<string, { ranks: Int32Array }> }).ranks.get('LIT')!.ranks;
    expect(readRanks.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(readRanks).toEqual(ranks);
    expect(readBack(read[1]!)).toEqual(parts[0]);
    truncateSync(place.file, 1_500_000);
    expect(readAll(keptParts(place, revision))).toEqual([]);
  });

  it('cut short, give the parts before the cut', () => {
    const place = keep('cut.db', parts.map(packPart));
    truncateSync(place.file, statSync(place.file).size - 10);
    const read = readAll(keptParts(place, revision))!;
    expect(read.length).toBe(parts.length - 1);
    expect(read.map(readBack)).toEqual(parts.slice(0, -1));
  });
});

describe('packed strings', () => {
  it('give back every string, map and array as it was', () => {
    const strings = Array.from({ length: 40 }, (_, i) => ['', 'Łódź', 'naïve', '𝔘nicode', 'a\u0000b', `value ${i}`][i % 6]!);
    const value = {
      strings,
      few: ['x', 'y'],
      spellings: new Map(Array.from({ length: 20 }, (_, i) => [i * 3, strings.slice(i, i + (i % 3))])),
      byName: new Map([['author', { values: strings, firstCode: 4, codes: Int32Array.of(1, 2, 3) }]]),
      weights: Float64Array.of(0.5, 2),
      // Long strings go on shared memory: one byte a character, or two where one is past U+00FF (a lone surrogate too).
      dates: '2024-01-01Été'.repeat(6000),
      wide: '𝔘\uD800x'.repeat(20000),
    };
    const packed = packPart({ words: new Map([['LIT', value]]) } as unknown as SharedPart);
    expect(readBack(packed)).toEqual({ words: new Map([['LIT', value]]) });
    const { dates, wide } = (packed as { words: Map<string, Record<string, { packedString: Uint8Array }>> }).words.get('LIT')!;
    expect(dates!.packedString.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([dates!.packedString.length, wide!.packedString.length]).toEqual([value.dates.length, value.wide.length * 2]);
  });
});
