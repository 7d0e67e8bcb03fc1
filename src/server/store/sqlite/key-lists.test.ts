import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeKeyChunk, encodeKeyChunk, keyChunkHas, keyChunkOf, keyChunkRecords, keyRecords, KeyListsWriter } from './key-lists';

const table = 'lit_keys';
const openTable = () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE ${table} (name TEXT NOT NULL, value TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (name, value, chunk)) WITHOUT ROWID`);
  return db;
};

/** Distinct ascending ids of one chunk. */
const chunkIds = fc
  .tuple(fc.nat(40), fc.uniqueArray(fc.nat(keyChunkRecords - 1), { maxLength: 3000 }))
  .map(([chunk, offsets]) => ({ chunk, ids: offsets.sort((a, b) => a - b).map((offset) => chunk * keyChunkRecords + offset) }));

describe('a key chunk', () => {
  it('reads back every id as written, in whichever form is smaller, and answers membership as its list does', () => {
    fc.assert(
      fc.property(chunkIds, fc.nat(keyChunkRecords - 1), ({ chunk, ids }, probe) => {
        const data = encodeKeyChunk(chunk, ids);
        expect(decodeKeyChunk(chunk, data)).toEqual(ids);
        // Never more than the chunk's bitmap and the byte that names the form.
        expect(data.length).toBeLessThanOrEqual(keyChunkRecords / 8 + 1);
        const id = chunk * keyChunkRecords + probe;
        expect(keyChunkHas(chunk, data, id)).toBe(ids.includes(id));
      }),
    );
  });

  it('keeps a key held by every record in a bit a record, and one held by a few in a byte or so each', () => {
    const every = Array.from({ length: keyChunkRecords }, (_, i) => keyChunkRecords + i);
    expect(encodeKeyChunk(1, every).length).toBe(keyChunkRecords / 8 + 1);
    expect(decodeKeyChunk(1, encodeKeyChunk(1, every))).toEqual(every);
    expect(encodeKeyChunk(2, [2 * keyChunkRecords + 3, 2 * keyChunkRecords + 90]).length).toBe(3);
  });

  it('refuses ids out of order or outside the chunk rather than store a list it would read back wrong', () => {
    expect(() => encodeKeyChunk(0, [5, 3])).toThrow(RangeError);
    expect(() => encodeKeyChunk(0, [5, 5])).toThrow(RangeError);
    expect(() => encodeKeyChunk(0, [keyChunkRecords])).toThrow(RangeError);
  });
});

type Op = { readonly kind: 'add' | 'remove'; readonly id: number; readonly keys: [string, string][] } | { readonly kind: 'flush' };

const keyPool: [string, string][] = [
  ['country', 'us'],
  ['country', 'de'],
  ['language', 'english'],
  ['identifier', 'osti-1'],
  ['author_name', 'okafor, c'],
];
const ids = fc.oneof(fc.nat(60), fc.integer({ min: keyChunkRecords - 30, max: keyChunkRecords + 30 }), fc.nat(5 * keyChunkRecords));
const ops = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constantFrom('add' as const, 'remove' as const), id: ids, keys: fc.subarray(keyPool) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
  ),
  { maxLength: 200 },
);

describe('the key lists a writer keeps', () => {
  it('hold, after every flush, the records each key was last given to and not taken from, and no row for an emptied list', () => {
    // A write into an empty deployment (`intoEmpty`) writes its new chunks without reading them first.
    fc.assert(
      fc.property(ops, fc.boolean(), (sequence: Op[], intoEmpty) => {
        const db = openTable();
        const writer = new KeyListsWriter(db, table);
        writer.begin(intoEmpty);
        const expected = new Map(keyPool.map(([name, value]) => [`${name}=${value}`, new Set<number>()]));
        for (const op of sequence) {
          if (op.kind === 'flush') writer.flush();
          else {
            writer[op.kind](op.id, op.keys);
            for (const [name, value] of op.keys) expected.get(`${name}=${value}`)![op.kind === 'add' ? 'add' : 'delete'](op.id);
          }
        }
        writer.flush();
        for (const [name, value] of keyPool) {
          const want = [...expected.get(`${name}=${value}`)!].sort((a, b) => a - b);
          expect(keyRecords(db, table, name, value)).toEqual(want);
          const chunks = db.prepare(`SELECT chunk FROM ${table} WHERE name = ? AND value = ? ORDER BY chunk`).pluck().all(name, value);
          expect(chunks).toEqual([...new Set(want.map(keyChunkOf))]);
        }
        db.close();
      }),
    );
  });

  it('append new records to a list already written, and take a replaced record off the lists it left', () => {
    const db = openTable();
    const writer = new KeyListsWriter(db, table);
    const first = Array.from({ length: 3000 }, (_, i) => i + 1);
    for (const id of first) writer.add(id, [['country', id % 2 ? 'us' : 'de']]);
    writer.flush();
    // A later write: new records after the last chunk's, one crossing into the next chunk, and one replaced.
    const later = [keyChunkRecords - 1, keyChunkRecords, keyChunkRecords + 7];
    for (const id of later) writer.add(id, [['country', 'us']]);
    writer.remove(3, [['country', 'us']]);
    writer.add(3, [['country', 'de']]);
    writer.flush();
    expect(keyRecords(db, table, 'country', 'us')).toEqual([...first.filter((id) => id % 2 && id !== 3), ...later]);
    expect(keyRecords(db, table, 'country', 'de')).toEqual([...first.filter((id) => id % 2 === 0 || id === 3)].sort((a, b) => a - b));
    db.close();
  });

  it('read a chunk an earlier flush of a write into an empty deployment wrote before changing it again', () => {
    const db = openTable();
    const writer = new KeyListsWriter(db, table);
    writer.begin(true);
    for (let id = 1; id <= keyChunkRecords + 10; id++) writer.add(id, [['country', 'us']]);
    // A record given again later in the same load (its repo_id repeated) moves to another key.
    writer.remove(5, [['country', 'us']]);
    writer.add(5, [['country', 'de']]);
    writer.flush();
    const all = Array.from({ length: keyChunkRecords + 10 }, (_, i) => i + 1);
    expect(keyRecords(db, table, 'country', 'us')).toEqual(all.filter((id) => id !== 5));
    expect(keyRecords(db, table, 'country', 'de')).toEqual([5]);
    db.close();
  });

  it('forget a write that rolled back: nothing it noted reaches the next flush', () => {
    const db = openTable();
    const writer = new KeyListsWriter(db, table);
    writer.add(1, [['country', 'us']]);
    writer.forget();
    writer.add(2, [['country', 'us']]);
    writer.flush();
    expect(keyRecords(db, table, 'country', 'us')).toEqual([2]);
    db.close();
  });
});
