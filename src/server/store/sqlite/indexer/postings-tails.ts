import { BlockFrontier } from '../../../engine/postings/block-frontier';
import {
  blockSize,
  decodePostings,
  encodePostings,
  noPostings,
  StoredPostings,
  type TokenPostings,
} from '../../../engine/postings/block-postings';

/**
 * Tails, as Lucene appends segments rather than rewriting its index: a write of new
 * records puts each list's new postings in a small tail row beside the list (the *_tail
 * tables, schema.ts) instead of rewriting the whole list, which for a word in every record
 * of a million-record store is megabytes per write. Readers read a list and its tail as
 * one (engine/postings/joined-postings.ts).
 *
 * A tail holds only records after every record of its list, and only while it is small
 * against the list: a tail kept under 1/s of its list costs a write about list/2s in
 * rewriting it and, amortized, s × the appended postings in folding it back, least at s
 * near √(records / 2 × batch), about 22 for batches of a thousand into a million. Each
 * list takes its s between 16 and 32 by its key, so lists that grow together (every
 * common word does with every write) are not all folded by the same write. A write that
 * changes records already in a list rewrites it whole, tail folded in.
 */

const tailShare = (key: string): number => {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return 16 + (hash % 17);
};

/** The records a write changed: marks for a lookup per stored posting, and sorted, to look for them in a list. */
export class ChangedIds {
  private readonly marks: Uint8Array;
  readonly sorted: Int32Array;
  /** Whether every one is new, after every record stored before: then no stored list holds one. */
  readonly newOnly: boolean;

  /** `ids` changed by a write into a store whose records had ids below `idsBefore`. */
  constructor(ids: readonly number[], idsBefore: number) {
    this.sorted = Int32Array.from(ids).sort();
    this.newOnly = this.sorted.length === 0 || this.sorted[0]! >= idsBefore;
    const max = this.sorted.length ? this.sorted[this.sorted.length - 1]! : 0;
    this.marks = new Uint8Array(max + 1);
    for (const id of ids) this.marks[id] = 1;
  }

  has(id: number): boolean {
    return id < this.marks.length && this.marks[id] === 1;
  }

  /**
   * Whether any of them is in `list`: only the blocks that could hold one are decoded, each
   * once, and walked beside the sorted ids (a replacement's thousand ids fall mostly in the
   * same few blocks of a short list).
   */
  anyIn(list: StoredPostings): boolean {
    if (list.blocks === 0 || this.sorted[0]! > list.lastIds[list.blocks - 1]!) return false;
    let b = 0;
    let block: Int32Array | undefined;
    let i = 0;
    for (const id of this.sorted) {
      if (list.lastIds[b]! < id) {
        while (b < list.blocks && list.lastIds[b]! < id) b++;
        if (b === list.blocks) return false;
        block = undefined;
      }
      if (!block) {
        block = list.ids(b);
        i = 0;
      }
      while (block[i]! < id) i++;
      if (block[i] === id) return true;
    }
    return false;
  }
}

const frontier = new BlockFrontier(blockSize);

/**
 * Whether each block of `list` holding one of `ids` (ascending) has the frontier it was
 * written with under `lengths`: then records whose postings are unchanged but whose lengths
 * changed leave the list as a rebuild would write it.
 */
function sameFrontiers(list: StoredPostings, ids: Int32Array, lengths: ArrayLike<number>): boolean {
  const { starts, counts: bestCounts, lengths: shortest } = list.frontiers;
  let b = -1;
  for (const id of ids) {
    if (b >= 0 && list.lastIds[b]! >= id) continue;
    b++;
    while (b < list.blocks && list.lastIds[b]! < id) b++;
    if (b >= list.blocks) return true;
    // A block none of them is in keeps its frontier: its records' lengths are as they were.
    const blockIds = list.ids(b);
    const blockCounts = list.counts(b);
    frontier.clear();
    for (let i = 0; i < blockIds.length; i++) frontier.add(blockCounts[i]!, lengths[blockIds[i]!] ?? 0);
    if (frontier.size !== starts[b + 1]! - starts[b]!) return false;
    for (let k = 0; k < frontier.size; k++) {
      if (frontier.counts[k] !== bestCounts[starts[b]! + k] || frontier.lengths[k] !== shortest[starts[b]! + k]) return false;
    }
  }
  return true;
}

/** A list as stored: written whole, and what was appended since. */
interface StoredList {
  readonly whole?: StoredPostings;
  readonly tail?: StoredPostings;
}

/** A list as stored, its whole part (megabytes for a common word) read only when asked for. */
interface StoredRows {
  /** The whole part's documents; 0 where there is no list. */
  readonly docs: number;
  readonly tail?: StoredPostings;
  read(): StoredList;
}

/** Every posting of a stored list, tail included. */
export function storedPostings({ whole, tail }: StoredList): TokenPostings {
  if (!whole) return noPostings;
  return tail ? concatenated(decodePostings(whole), decodePostings(tail)) : decodePostings(whole);
}

/** Where a write's postings for one list go: after its tail, into the list rewritten whole, or nowhere (it changed nothing there). */
type ListWrite = 'append' | 'rewrite' | 'unchanged';

/** How a write of records `changed`, adding `added` to the list stored under `key`, is applied to it. */
function listWrite(key: string, stored: StoredRows, changed: ChangedIds, added: TokenPostings): ListWrite {
  if (stored.docs === 0) return added.ids.length ? 'rewrite' : 'unchanged';
  if (!changed.newOnly) {
    const { whole, tail } = stored.read();
    if (changed.anyIn(whole!) || (tail && changed.anyIn(tail))) return 'rewrite';
    const last = (tail ?? whole!).lastIds[(tail ?? whole!).blocks - 1]!;
    if (added.ids.length && added.ids[0]! <= last) return 'rewrite';
  }
  if (added.ids.length === 0) return 'unchanged';
  return ((stored.tail?.docs ?? 0) + added.ids.length) * tailShare(key) <= stored.docs ? 'append' : 'rewrite';
}

/** Concatenates lists whose ids follow one another. */
function concatenated(a: TokenPostings, b: TokenPostings): TokenPostings {
  if (a.ids.length === 0) return b;
  const ids = new Int32Array(a.ids.length + b.ids.length);
  const counts = new Uint32Array(ids.length);
  ids.set(a.ids);
  ids.set(b.ids, a.ids.length);
  counts.set(a.counts);
  counts.set(b.counts, a.ids.length);
  return { ids, counts };
}

const noList: StoredRows = { docs: 0, read: () => ({}) };

/** How a table of lists and its tail's rows are found, written and deleted, by a list's key (a token, a pair) and col (term-rows.ts, pair-rows.ts). */
export interface ListRows {
  /** Every col's list under `key`: its col, its whole part's documents and its tail's data, if any. */
  rows(key: string): [string, number, Uint8Array | null][];
  whole(key: string, col: string): Uint8Array;
  writeWhole(key: string, col: string, docs: number, data: Buffer): void;
  writeTail(key: string, col: string, docs: number, data: Buffer): void;
  deleteWhole(key: string, col: string): void;
  deleteTail(key: string, col: string): void;
}

/**
 * A table of lists and its tail table (`<p>_postings` for the tokens' postings,
 * `<p>_pairs` for the pair lists), each list over whole records and per column.
 */
export class ListTable {
  constructor(private readonly stored: ListRows) {}

  private rows(key: string): Map<string, StoredRows> {
    const rows = new Map<string, StoredRows>();
    for (const [col, docs, data] of this.stored.rows(key)) {
      const tail = data ? new StoredPostings(data) : undefined;
      let list: StoredList | undefined;
      const read = () => (list ??= { whole: new StoredPostings(this.stored.whole(key, col)), ...(tail ? { tail } : {}) });
      rows.set(col, { docs, ...(tail ? { tail } : {}), read });
    }
    return rows;
  }

  /** Whether the lists under `key` are as a rebuild would write them after records `ids` (ascending), holding the same postings as before, took `lengths`. */
  sameFrontiers(key: string, ids: Int32Array, lengths: ArrayLike<number>): boolean {
    for (const rows of this.rows(key).values()) {
      const { whole, tail } = rows.read();
      if ((whole && !sameFrontiers(whole, ids, lengths)) || (tail && !sameFrontiers(tail, ids, lengths))) return false;
    }
    return true;
  }

  /**
   * Applies a write to the lists under `key`: `changed` records replaced or added, `added`
   * their postings by col. `rewritten` is told each list's postings before and after where
   * it is written whole (the whole-record list's positions go with it); returns how the
   * write went into each.
   */
  update(
    key: string,
    added: ReadonlyMap<string, TokenPostings>,
    changed: ChangedIds,
    lengths: ArrayLike<number>,
    rewritten?: (col: string, stored: TokenPostings, list: TokenPostings) => void,
  ): Map<string, ListWrite> {
    const stored = this.rows(key);
    const done = new Map<string, ListWrite>();
    for (const col of new Set([...stored.keys(), ...added.keys()])) {
      const rows: StoredRows = stored.get(col) ?? noList;
      const list = added.get(col) ?? noPostings;
      const how = listWrite(key, rows, changed, list);
      if (how === 'append') {
        const tail = concatenated(rows.tail ? decodePostings(rows.tail) : noPostings, list);
        this.stored.writeTail(key, col, tail.ids.length, encodePostings(tail, lengths));
      } else if (how === 'rewrite') {
        const before = storedPostings(rows.read());
        const after = merged(before, changed, list);
        if (after.ids.length === 0) this.stored.deleteWhole(key, col);
        else this.stored.writeWhole(key, col, after.ids.length, encodePostings(after, lengths));
        if (rows.tail) this.stored.deleteTail(key, col);
        rewritten?.(col, before, after);
      }
      done.set(col, how);
    }
    return done;
  }
}

/** A list after a write: its postings without the changed records, merged in id order with the written records' own. */
function merged(list: TokenPostings, changed: ChangedIds, added: TokenPostings): TokenPostings {
  const ids = new Int32Array(list.ids.length + added.ids.length);
  const counts = new Uint32Array(ids.length);
  let n = 0;
  let a = 0;
  for (let i = 0; i <= list.ids.length; i++) {
    const id = i < list.ids.length ? list.ids[i]! : Infinity;
    for (; a < added.ids.length && added.ids[a]! < id; a++) {
      ids[n] = added.ids[a]!;
      counts[n++] = added.counts[a]!;
    }
    if (i === list.ids.length || changed.has(id)) continue;
    ids[n] = id;
    counts[n++] = list.counts[i]!;
  }
  return { ids: ids.subarray(0, n), counts: counts.subarray(0, n) };
}
