import type Database from 'better-sqlite3';
import { maxTokenChars } from '../fts5-adapter';

/**
 * A full build's token instances held by token, a range of records at a time, and the
 * ranges written out to the temp schema and joined again (text-instances.ts).
 */

/** Rows of the ranges' table read at a time. */
const pageRows = 256;

/** A UTF-16 unit's place in code point order: a surrogate (of a code point above U+FFFF) goes after U+E000–U+FFFF, which UTF-16 puts after it. */
const utf8Order = (c: number) => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c);

/** Orders strings by their code points, which is their UTF-8 bytes' order (SQLite's BINARY). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return utf8Order(x) - utf8Order(y);
  }
  return a.length - b.length;
}

const codePoints = (text: string) => {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
};

/**
 * A token's instances in a range as bytes: per instance the record's distance from the
 * instance before (the first's from 0), then offset × 16 + column, each a LEB128 varint;
 * about 3 bytes an instance, where (record, column, offset) as integers take 12.
 */
export function decodeInstances(parts: readonly Uint8Array[], count: number): Int32Array {
  const triples = new Int32Array(3 * count);
  let t = 0;
  for (const bytes of parts) {
    let id = 0;
    let i = 0;
    while (i < bytes.length) {
      let delta = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = bytes[i++]!;
        delta += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      let place = 0;
      shift = 0;
      do {
        byte = bytes[i++]!;
        place += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      id += delta;
      triples[t++] = id;
      triples[t++] = place % 16;
      triples[t++] = Math.floor(place / 16);
    }
  }
  return triples;
}

/** A range's instances by token number, each token's encoded as they come (decodeInstances). */
export class HeldRange {
  private readonly lists: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(1024).fill(undefined);
  /** Per token number: its bytes so far, its instances, the record of its last. */
  private filled = new Int32Array(1024);
  private counts = new Int32Array(1024);
  private last = new Int32Array(1024);
  /** Per token number: 1 kept, 2 too long to index, 0 not yet known. */
  private kept = new Uint8Array(1024);
  instances = 0;
  bytes = 0;

  constructor(private readonly tokens: readonly string[]) {}

  private keptToken(n: number): boolean {
    if (n >= this.kept.length) {
      const size = Math.max(n + 1, this.kept.length * 2);
      const grown = <T extends Int32Array | Uint8Array>(from: T, to: T): T => {
        to.set(from);
        return to;
      };
      this.kept = grown(this.kept, new Uint8Array(size));
      this.filled = grown(this.filled, new Int32Array(size));
      this.counts = grown(this.counts, new Int32Array(size));
      this.last = grown(this.last, new Int32Array(size));
      // Filled up to its length, never written past it: an array written far past its end becomes a slow dictionary.
      while (this.lists.length < size) this.lists.push(undefined);
    }
    if (this.kept[n] === 0) this.kept[n] = codePoints(this.tokens[n]!) <= maxTokenChars ? 1 : 2;
    return this.kept[n] === 1;
  }

  add(n: number, id: number, column: number, offset: number): void {
    this.instances++;
    if (!this.keptToken(n)) return;
    let list = this.lists[n];
    let at = this.filled[n]!;
    // Two varints of at most 5 bytes each (ids and offsets are below 2^31).
    if (!list) this.lists[n] = list = new Uint8Array(16);
    else if (at + 10 > list.length) {
      const grown = new Uint8Array(list.length * 2);
      grown.set(list);
      this.lists[n] = list = grown;
    }
    let delta = id - this.last[n]!;
    this.last[n] = id;
    while (delta > 0x7f) {
      list[at++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    list[at++] = delta;
    let place = offset * 16 + column;
    while (place > 0x7f) {
      list[at++] = (place % 0x80) | 0x80;
      place = Math.floor(place / 0x80);
    }
    list[at++] = place;
    this.bytes += at - this.filled[n]!;
    this.filled[n] = at;
    this.counts[n]!++;
  }

  /** Each token held, in UTF-8 order, with its instances' bytes and their count. */
  each(visit: (token: string, bytes: Uint8Array, count: number) => void): void {
    const numbers: number[] = [];
    for (let n = 0; n < this.lists.length; n++) if (this.counts[n]! > 0) numbers.push(n);
    numbers.sort((a, b) => compareCodePoints(this.tokens[a]!, this.tokens[b]!));
    for (const n of numbers) visit(this.tokens[n]!, this.lists[n]!.subarray(0, this.filled[n]), this.counts[n]!);
  }
}

/** Ranges written out to a table of the temp schema, each token's instances a row per range. */
export class WrittenRanges {
  private readonly write: Database.Statement;
  ranges = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    db.exec(`CREATE TABLE ${table} (token TEXT NOT NULL, range INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL)`);
    this.write = db.prepare(`INSERT INTO ${table} (token, range, count, data) VALUES (?, ?, ?, ?)`);
  }

  add(range: HeldRange): void {
    range.each((token, bytes, count) => this.write.run(token, this.ranges, count, bytes));
    this.ranges++;
  }

  /** Each token, in UTF-8 order, with its ranges' instances joined; read a page at a time, as `visit` writes on the same connection. */
  each(visit: (token: string, triples: Int32Array) => void): void {
    // Indexed once all is written: rows go in as they come, and are read in order once.
    this.db.exec(`CREATE INDEX ${this.table}_order ON ${this.table.replace(/^temp\./, '')} (token, range)`);
    const page = this.db
      .prepare(`SELECT token, range, count, data FROM ${this.table} WHERE (token, range) > (?, ?) ORDER BY token, range LIMIT ${pageRows}`)
      .raw();
    let token: string | undefined;
    let parts: Buffer[] = [];
    let count = 0;
    const done = () => {
      if (token !== undefined) visit(token, decodeInstances(parts, count));
    };
    let after: [string, number] = ['', -1];
    for (;;) {
      const rows = page.all(...after) as [string, number, number, Buffer][];
      for (const [next, , instances, data] of rows) {
        if (next !== token) {
          done();
          token = next;
          parts = [];
          count = 0;
        }
        parts.push(data);
        count += instances;
      }
      if (rows.length < pageRows) break;
      after = [rows[rows.length - 1]![0], rows[rows.length - 1]![1]];
    }
    done();
  }
}
