import { IdSet } from '../../engine/id-set';
import type { ReadConnection } from './read-connection';

/** Bounds compared here as SQLite compares them: ASCII text, one byte a character in UTF-8. */
const ascii = /^[\x00-\x7f]*$/;

/** A date column as read (DateColumn.read), to hand to another thread's DateColumn (DateColumn.of). */
export interface DateColumnData {
  /** Ids of the dated records, in the column's order. */
  readonly ids: Int32Array;
  /**
   * The distinct values in UTF-8, one after the other, and where each starts and ends in it
   * (offsets[i], offsets[i + 1]): bytes on shared memory for every worker, which each made into
   * a string of its own (tens of megabytes at a million records) took a worker a tenth of a second.
   */
  readonly values: Uint8Array;
  readonly offsets: Int32Array;
  /** runEnds[i]: one past the last position in `ids` of a record holding value i. */
  readonly runEnds: Int32Array;
}

/**
 * One date column of a deployment's records, kept in memory, so a date range is answered
 * without reading its index per search (a fast field, after tantivy's and Lucene's doc
 * values): the ids of every dated record in the column's order (as its index orders them),
 * and each distinct value with where its run of ids ends. A range is two binary searches
 * over the distinct values and the ids between them (or, for a range holding most records,
 * the ids outside it taken from every dated record). Reading it takes a scan of the column's
 * index: a served generation's reader does it once for every worker (store-worker.ts).
 */
export class DateColumn {
  private datedSet?: IdSet;
  private readonly ids: Int32Array;
  private readonly values: Uint8Array;
  private readonly offsets: Int32Array;
  private readonly runEnds: Int32Array;

  private constructor(
    readonly data: DateColumnData,
    private readonly capacity: number,
  ) {
    ({ ids: this.ids, values: this.values, offsets: this.offsets, runEnds: this.runEnds } = data);
  }

  /** A column another thread read (its arrays as they are: on shared memory, they are not copied). */
  static of(data: DateColumnData, capacity: number): DateColumn {
    return new DateColumn(data, capacity);
  }

  /** The column `column` of `table`; undefined if some value is not text (SQLite would compare it by type first). */
  static read(connection: ReadConnection, table: string, column: string, capacity: number): DateColumn | undefined {
    if (!textOnly(connection, table, column)) return undefined;
    const ids = Int32Array.from(
      connection.prepare(`SELECT id FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${column}`).pluck().all() as number[],
    );
    const runs = connection
      .prepare(`SELECT ${column}, count(*) FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column} ORDER BY ${column}`)
      .raw()
      .all() as [string, number][];
    const offsets = new Int32Array(runs.length + 1);
    const runEnds = new Int32Array(runs.length);
    let end = 0;
    let length = 0;
    for (let i = 0; i < runs.length; i++) {
      const [value, count] = runs[i]!;
      length += Buffer.byteLength(value, 'utf8');
      offsets[i + 1] = length;
      runEnds[i] = end += count;
    }
    // Read apart from the ids: a write between the two reads outside a snapshot could part them.
    if (end !== ids.length) return undefined;
    const values = new Uint8Array(length);
    Buffer.from(values.buffer).write(runs.map(([value]) => value).join(''), 'utf8');
    return new DateColumn({ ids, values, offsets, runEnds }, capacity);
  }

  /** Records whose value is at least `from` (when given) and below `to` (when given); undefined for bounds not compared alike here. */
  range(from: string | undefined, to: string | undefined): IdSet | undefined {
    if ((from !== undefined && !ascii.test(from)) || (to !== undefined && !ascii.test(to))) return undefined;
    const low = from === undefined ? 0 : this.position(from);
    const high = to === undefined ? this.ids.length : Math.max(low, this.position(to));
    const inside = high - low;
    if (inside <= this.ids.length - inside) return this.idsOf(low, high);
    // Most dated records: every dated one but those outside, fewer ids to set.
    const outside = this.idsOf(0, low);
    const ids = this.ids;
    for (let i = high; i < ids.length; i++) outside.add(ids[i]!);
    return this.dated().andNot(outside);
  }

  /** The first position in `ids` of a record whose value is at least `bound`. */
  private position(bound: string): number {
    let low = 0;
    let high = this.runEnds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.below(middle, bound)) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? 0 : this.runEnds[low - 1]!;
  }

  /** Whether distinct value `i` orders before the ASCII `bound`, byte by byte as SQLite orders text. */
  private below(i: number, bound: string): boolean {
    const { values } = this;
    const [start, end] = [this.offsets[i]!, this.offsets[i + 1]!];
    for (let k = 0; k < bound.length; k++) {
      if (start + k === end) return true;
      const byte = values[start + k]!;
      const char = bound.charCodeAt(k);
      if (byte !== char) return byte < char;
    }
    return false;
  }

  private idsOf(start: number, end: number): IdSet {
    const set = new IdSet(this.capacity);
    const ids = this.ids;
    for (let i = start; i < end; i++) set.add(ids[i]!);
    return set;
  }

  private dated(): IdSet {
    this.datedSet ??= this.idsOf(0, this.ids.length);
    return this.datedSet;
  }
}

/**
 * Whether every value of the column that is not null is text. SQLite orders numbers before
 * text and blobs after it, so the least and the greatest value say it: two probes of the
 * column's index, not a scan of it.
 */
function textOnly(connection: ReadConnection, table: string, column: string): boolean {
  const least: unknown = connection.prepare(`SELECT min(${column}) FROM ${table}`).pluck().get();
  const greatest: unknown = connection.prepare(`SELECT max(${column}) FROM ${table}`).pluck().get();
  return (least === null || typeof least === 'string') && (greatest === null || typeof greatest === 'string');
}
