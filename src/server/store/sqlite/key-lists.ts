import type Database from 'better-sqlite3';
import { VarintCursor, VarintWriter } from '../../engine/postings/varint';

/**
 * Exact-match keys as lists: each (name, value) holds the records under it as one row per
 * chunk of record ids (`<p>_keys`, schema.ts), not a B-tree row per record, so a country
 * held by half the catalog costs a bit or a byte a record instead of its name and value
 * again each time. A chunk is either the gaps between its ids (LEB128, the first from the
 * chunk's start) or, where that is larger, a bitmap of the chunk: the form's first byte says
 * which. Chunks keep a write's cost to the chunks of the records it wrote (new records take
 * the last), where one list a value would be read and written whole by every write.
 */

/** Record ids a chunk covers: its bitmap is 2 KB, so a chunk stays a row of a page or so. */
export const keyChunkRecords = 1 << 14;

export const keyChunkOf = (id: number) => Math.floor(id / keyChunkRecords);

const gapsForm = 0;
const bitmapForm = 1;
const bitmapBytes = keyChunkRecords / 8;

const writer = new VarintWriter();

/** A chunk's ids (ascending, distinct, all in `chunk`) in the smaller of the two forms. */
export function encodeKeyChunk(chunk: number, ids: readonly number[]): Buffer {
  const base = chunk * keyChunkRecords;
  writer.clear();
  writer.write(gapsForm);
  let previous = base - 1;
  for (const id of ids) {
    if (id <= previous || keyChunkOf(id) !== chunk) throw new RangeError(`Key chunk ${chunk}: id ${id} out of order or range`);
    writer.write(id - previous - 1);
    previous = id;
    if (writer.length > bitmapBytes + 1) return bitmapOf(base, ids);
  }
  return Buffer.from(writer.toBuffer());
}

function bitmapOf(base: number, ids: readonly number[]): Buffer {
  const bytes = Buffer.alloc(bitmapBytes + 1);
  bytes[0] = bitmapForm;
  for (const id of ids) {
    const offset = id - base;
    bytes[1 + (offset >>> 3)]! |= 1 << (offset & 7);
  }
  return bytes;
}

/** Calls `each` with every id of a chunk, ascending. */
export function forEachKeyId(chunk: number, data: Uint8Array, each: (id: number) => void): void {
  const base = chunk * keyChunkRecords;
  if (data[0] === bitmapForm) {
    for (let byte = 1; byte < data.length; byte++) {
      const bits = data[byte]!;
      if (bits === 0) continue;
      for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) each(base + (byte - 1) * 8 + bit);
    }
    return;
  }
  const cursor = new VarintCursor(data, 1);
  let id = base - 1;
  while (cursor.at < data.length) each((id += cursor.read() + 1));
}

export function decodeKeyChunk(chunk: number, data: Uint8Array): number[] {
  const ids: number[] = [];
  forEachKeyId(chunk, data, (id) => ids.push(id));
  return ids;
}

/** Whether a chunk holds `id` (of that chunk). */
export function keyChunkHas(chunk: number, data: Uint8Array, id: number): boolean {
  const offset = id - chunk * keyChunkRecords;
  if (data[0] === bitmapForm) return (data[1 + (offset >>> 3)]! & (1 << (offset & 7))) !== 0;
  let found = false;
  forEachKeyId(chunk, data, (each) => (found ||= each === id));
  return found;
}

/** The records under one key, ascending, read straight from a keys table (a reference reader's way). */
export function keyRecords(db: Database.Database, table: string, name: string, value: string): number[] {
  const rows = db.prepare(`SELECT chunk, data FROM ${table} WHERE name = ? AND value = ? ORDER BY chunk`).raw().all(name, value) as [
    number,
    Uint8Array,
  ][];
  return rows.flatMap(([chunk, data]) => decodeKeyChunk(chunk, data));
}

/**
 * Records noted per flush of a write at most: a bulk load is one transaction, so what is
 * pending is bounded here. A chunk's worth, and records come by id in a bulk load, so each
 * flush there ends at a chunk's end and every chunk is written once.
 */
const flushEvery = keyChunkRecords;

/**
 * A deployment's key lists as a writer changes them: `begin` a write, `add` and `remove` a
 * record's keys, then `flush` before the commit (each chunk touched is read, changed and
 * written once a flush; into an empty deployment, a chunk no earlier flush wrote is not read).
 */
export class KeyListsWriter {
  /**
   * Per key name and value, the records noted, in the order noted: each as id × 2 + 1 when it
   * is now under the key, id × 2 when it no longer is (the last noted holds). Nested, not one
   * map by name and value joined, which would build a string a key; a flush parts each
   * value's by chunk.
   */
  private pending = new Map<string, Map<string, number[]>>();
  /** Records noted since the last flush (a record noted again at once counts once), and the last. */
  private noted = 0;
  private last = -1;
  /**
   * In a write into an empty deployment, the chunks its earlier flushes wrote: no other chunk
   * has a row yet, so a bulk load's flushes write without reading first.
   */
  private intoEmpty: Set<number> | undefined;
  private readonly read: Database.Statement;
  private readonly write: Database.Statement;
  private readonly drop: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, table: string) {
    this.read = db.prepare(`SELECT data FROM ${table} WHERE name = ? AND value = ? AND chunk = ?`).pluck();
    this.write = db.prepare(`INSERT OR REPLACE INTO ${table} (name, value, chunk, data) VALUES (?, ?, ?, ?)`);
    this.drop = db.prepare(`DELETE FROM ${table} WHERE name = ? AND value = ? AND chunk = ?`);
    this.clear = db.prepare(`DELETE FROM ${table}`);
  }

  /** A write begins, in its transaction; `empty`: the deployment holds no records, so no key lists are kept either. */
  begin(empty: boolean): void {
    this.forget();
    this.intoEmpty = undefined;
    if (!empty) return;
    // An empty deployment keeps no key lists; emptied all the same, so a chunk written unread never hides a row.
    this.clear.run();
    this.intoEmpty = new Set();
  }

  /** Record `id` is under these keys now (after any `remove` of its old ones). */
  add(id: number, keys: readonly (readonly [string, string])[]): void {
    this.note(id, keys, true);
  }

  /** Record `id` is no longer under these keys. */
  remove(id: number, keys: readonly (readonly [string, string])[]): void {
    this.note(id, keys, false);
  }

  private note(id: number, keys: readonly (readonly [string, string])[], under: boolean): void {
    if (id !== this.last) {
      // Before a record past the chunk of the last, a flush writes whole chunks of a bulk load.
      if (this.noted >= flushEvery || (this.noted >= flushEvery / 2 && keyChunkOf(id) > keyChunkOf(this.last))) this.flush();
      this.noted++;
      this.last = id;
    }
    const change = 2 * id + (under ? 1 : 0);
    for (const [name, value] of keys) {
      let values = this.pending.get(name);
      if (!values) this.pending.set(name, (values = new Map<string, number[]>()));
      const changes = values.get(value);
      if (changes) changes.push(change);
      else values.set(value, [change]);
    }
  }

  /** Writes every chunk touched since the last flush. */
  flush(): void {
    const flushed = new Set<number>();
    // In key order, as the table's B-tree is.
    for (const name of [...this.pending.keys()].sort()) {
      const values = this.pending.get(name)!;
      for (const value of [...values.keys()].sort()) {
        for (const [chunk, changes] of byChunk(values.get(value)!)) {
          this.flushChunk(name, value, chunk, changes);
          flushed.add(chunk);
        }
      }
    }
    for (const chunk of flushed) this.intoEmpty?.add(chunk);
    this.forget();
  }

  private flushChunk(name: string, value: string, chunk: number, changes: readonly number[]): void {
    const unread = this.intoEmpty !== undefined && !this.intoEmpty.has(chunk);
    const stored = unread ? undefined : (this.read.get(name, value, chunk) as Uint8Array | undefined);
    const added = appended(changes);
    if (added && !stored) {
      // New records onto a new chunk (a bulk load's every list): the ids as noted.
      this.write.run(name, value, chunk, encodeKeyChunk(chunk, added));
      return;
    }
    const ids = new Set(stored ? decodeKeyChunk(chunk, stored) : []);
    for (const change of changes) {
      const id = Math.floor(change / 2);
      if (change % 2 === 1) ids.add(id);
      else ids.delete(id);
    }
    if (ids.size === 0) {
      if (stored) this.drop.run(name, value, chunk);
    } else {
      this.write.run(
        name,
        value,
        chunk,
        encodeKeyChunk(
          chunk,
          [...ids].sort((a, b) => a - b),
        ),
      );
    }
  }

  /** Drops what is pending: after a write that rolled back. */
  forget(): void {
    this.pending.clear();
    this.noted = 0;
    this.last = -1;
  }
}

/** A value's changes by chunk, ascending, each chunk's in the order noted (most flushes touch one chunk a value). */
function byChunk(changes: number[]): [number, number[]][] {
  const first = keyChunkOf(Math.floor(changes[0]! / 2));
  if (changes.every((change) => keyChunkOf(Math.floor(change / 2)) === first)) return [[first, changes]];
  const chunks = new Map<number, number[]>();
  for (const change of changes) {
    const chunk = keyChunkOf(Math.floor(change / 2));
    const list = chunks.get(chunk);
    if (list) list.push(change);
    else chunks.set(chunk, [change]);
  }
  return [...chunks].sort(([a], [b]) => a - b);
}

/** The ids of changes that each put a record under the key, in ascending order; undefined for any other changes. */
function appended(changes: readonly number[]): number[] | undefined {
  const ids = new Array<number>(changes.length);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (change % 2 !== 1 || (i > 0 && change <= changes[i - 1]!)) return undefined;
    ids[i] = (change - 1) / 2;
  }
  return ids;
}
