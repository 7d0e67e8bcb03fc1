import { BudgetCache } from '../../caches/budget-cache';
import { BlockTable } from './block-postings';

/**
 * The block tables (block-postings.ts) of a reader's densest lists, kept so a search that
 * holds a common word neither copies its list out of the store nor decodes every block's
 * header again: those words recur across searches, and their lists are the longest there
 * are. A list counts as dense from `minDocs` documents, as DenseSets counts it. Kept by
 * last use up to `budget` bytes in all (BudgetCache), so a reader's memory stays bounded
 * whatever the queries: a table takes about its list's bytes and a few tens of bytes a
 * block. A reader reads one snapshot of its file, so a table never goes stale: a write's
 * new lists are read by the next generation's reader, which keeps its own.
 */
export class KeptTables {
  private readonly tables: BudgetCache<readonly BlockTable[]>;

  constructor(
    private readonly minDocs: number,
    budget: number,
  ) {
    this.tables = new BudgetCache(budget);
  }

  /** The tables kept under `key` (a list's and its tail's). */
  get(key: number): readonly BlockTable[] | undefined {
    return this.tables.get(String(key));
  }

  /** The parts' tables (a list and its tail), kept under `key` if together they are dense. */
  read(key: number, parts: readonly Uint8Array[]): readonly BlockTable[] {
    const tables = parts.map((data) => new BlockTable(data));
    if (tables.reduce((docs, table) => docs + table.docs, 0) >= this.minDocs)
      this.tables.set(
        String(key),
        tables,
        tables.reduce((bytes, table) => bytes + table.bytes, 0),
      );
    return tables;
  }
}
