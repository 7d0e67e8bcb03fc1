import { BlockTable } from './block-postings';

/**
 * The block tables (block-postings.ts) of a reader's densest lists, kept so a search that
 * holds a common word neither copies its list out of the store nor decodes every block's
 * header again: those words recur across searches, and their lists are the longest there
 * are. A list counts as dense from `minDocs` documents, as DenseSets counts it. Kept by
 * last use up to `budget` bytes in all, so a reader's memory stays bounded whatever the
 * queries (a table is about its list's bytes and a few tens of bytes a block). A reader
 * reads one snapshot of its file, so a table never goes stale: a write's new lists are read
 * by the next generation's reader, which keeps its own.
 */
export class KeptTables {
  private readonly tables = new Map<number, readonly BlockTable[]>();
  private held = 0;

  constructor(
    private readonly minDocs: number,
    private readonly budget: number,
  ) {}

  /** The tables kept under `key` (a list's and its tail's), marked as the last used. */
  get(key: number): readonly BlockTable[] | undefined {
    const tables = this.tables.get(key);
    if (tables) {
      this.tables.delete(key);
      this.tables.set(key, tables);
    }
    return tables;
  }

  /** The parts' tables (a list and its tail), kept under `key` if together they are dense and fit the budget. */
  read(key: number, parts: readonly Uint8Array[]): readonly BlockTable[] {
    const tables = parts.map((data) => new BlockTable(data));
    if (tables.reduce((docs, table) => docs + table.docs, 0) < this.minDocs) return tables;
    const bytes = bytesOf(tables);
    if (bytes > this.budget) return tables;
    const before = this.tables.get(key);
    if (before) {
      this.tables.delete(key);
      this.held -= bytesOf(before);
    }
    for (const [oldest, kept] of this.tables) {
      if (this.held + bytes <= this.budget) break;
      this.tables.delete(oldest);
      this.held -= bytesOf(kept);
    }
    this.tables.set(key, tables);
    this.held += bytes;
    return tables;
  }

  /** How many bytes the kept tables hold. */
  get size(): number {
    return this.held;
  }
}

const bytesOf = (tables: readonly BlockTable[]) => tables.reduce((bytes, table) => bytes + table.bytes, 0);
