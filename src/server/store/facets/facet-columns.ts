import type Database from 'better-sqlite3';
import type { FacetDef } from '../../../deployments/facets';
import type { Deployment } from '../../../deployments/schema';
import { tablesOf } from '../sqlite/schema';
import type { StoredRecord } from '../types';
import { blockLists, blockOf, decodeBlock, encodeBlock, recordsPerBlock } from './code-blocks';
import type { CountSource } from '../../../formats/facet-kinds/facet-kind';
import { countSourceOf, facetKeyName, groupOf, hasFacetRows } from './facet-values';

/**
 * Facet columns, after tantivy's fast fields and Lucene's doc values: per facet, a dictionary
 * of the values records hold (`<p>_facet_dict`, a code per value as written, never renumbered)
 * and each record's codes in blocks of records (`<p>_facet_blocks`, code-blocks.ts). The
 * writer keeps them in its transaction, rewriting only the blocks of the records it wrote, so
 * a reader opening the store reads the columns (facet-index.ts), the one stored copy of facet
 * values, and a write costs blocks, not the store.
 * Each value's group (facet-values.ts `groupOf`) is kept beside it; which spelling a group
 * shows and how names join are worked out by the reader over the dictionary (values, not
 * records), so a write never recodes old records.
 */

/** A record's values of one facet: from its key rows by name (its exact-match keys and facet rows, facet-values.ts), or its date. */
type ColumnSource = (stored: StoredRecord, keyRows: ReadonlyMap<string, readonly string[]>) => readonly string[];

/**
 * Where the writer draws each source a facet kind counts from (CountSource,
 * formats/facet-kinds/): a kind of an existing source needs nothing here.
 */
const columnSources: {
  readonly [S in CountSource['from']]: (facet: FacetDef, source: Extract<CountSource, { from: S }>) => ColumnSource;
} = {
  dates:
    (_facet, { field, group }) =>
    ({ record }) => {
      const date = record[field];
      const year = typeof date === 'string' ? date.slice(0, 4) : '';
      return /^\d{4}$/.test(year) ? [group(year)] : [];
    },
  values: (facet) => {
    const name = hasFacetRows(facet) ? facetKeyName(facet) : facet.key!;
    return (_, keyRows) => keyRows.get(name) ?? [];
  },
};

const sourceOf = (facet: FacetDef): ColumnSource => {
  const source = countSourceOf(facet);
  return columnSources[source.from](facet, source as never);
};

/** One facet's column as the writer changes it: its dictionary (read on first use) and the blocks a write touched. */
class ColumnWrite {
  private codes?: Map<string, number>;
  /** The group a value counts in, kept beside it in the dictionary: folding a million names is not a reader's work. */
  private readonly group: (value: string) => string;
  /** Per block touched, each written record's codes by its place in the block. */
  readonly touched = new Map<number, Map<number, number[]>>();

  constructor(
    readonly facet: FacetDef,
    readonly source: ColumnSource,
    private readonly statements: ColumnStatements,
  ) {
    this.group = countSourceOf(facet).from === 'dates' ? (value) => value : groupOf(facet);
  }

  /** The dictionary, read once and kept for the writer's later writes: its size grows with the store's values, not the write's. */
  dictionary(): Map<string, number> {
    if (!this.codes) {
      const rows = this.statements.readDict.all(this.facet.name) as [number, string][];
      this.codes = new Map(rows.map(([code, stored]) => [stored, code]));
    }
    return this.codes;
  }

  /** The value's code, a new one (the next) for a value no record held before. */
  codeOf(value: string): number {
    const codes = this.dictionary();
    let code = codes.get(value);
    if (code === undefined) {
      code = codes.size;
      codes.set(value, code);
      this.statements.insertDict.run(this.facet.name, code, value, this.group(value));
    }
    return code;
  }

  set(id: number, values: readonly string[]): void {
    const codes = [...new Set(values.map((value) => this.codeOf(value)))].sort((a, b) => a - b);
    const block = blockOf(id);
    let records = this.touched.get(block);
    if (!records) this.touched.set(block, (records = new Map<number, number[]>()));
    records.set(id - block * recordsPerBlock, codes);
  }

  /** Drops what this write kept in memory: after a rolled-back write, the dictionary is read again. */
  forget(): void {
    this.codes = undefined;
    this.touched.clear();
  }

  /** Writes the touched blocks, each read, changed and written whole. */
  flush(): void {
    for (const [block, records] of this.touched) {
      const stored = this.statements.readBlock.get(this.facet.name, block) as Uint8Array | undefined;
      const lists: number[][] = stored ? blockLists(decodeBlock(stored)) : [];
      for (const [place, codes] of records) lists[place] = codes;
      this.statements.writeBlock.run(this.facet.name, block, encodeBlock(lists));
    }
    this.touched.clear();
  }
}

interface ColumnStatements {
  readonly readDict: Database.Statement;
  readonly insertDict: Database.Statement;
  readonly readBlock: Database.Statement;
  readonly writeBlock: Database.Statement;
}

/** A deployment's facet columns as a writer keeps them: `set` each record written, then `flush` before the commit. */
export class FacetColumnsWriter {
  private readonly columns: ColumnWrite[];

  constructor(db: Database.Database, deployment: Deployment) {
    const t = tablesOf(deployment);
    const statements: ColumnStatements = {
      readDict: db.prepare(`SELECT code, value FROM ${t.facetDict} WHERE facet = ?`).raw(),
      insertDict: db.prepare(`INSERT INTO ${t.facetDict} (facet, code, value, grp) VALUES (?, ?, ?, ?)`),
      readBlock: db.prepare(`SELECT data FROM ${t.facetBlocks} WHERE facet = ? AND block = ?`).pluck(),
      writeBlock: db.prepare(`INSERT OR REPLACE INTO ${t.facetBlocks} (facet, block, data) VALUES (?, ?, ?)`),
    };
    this.columns = deployment.facets.map((facet) => new ColumnWrite(facet, sourceOf(facet), statements));
  }

  /** Record `id` now holds what `stored` does; `keyRows` are its exact-match keys and its facet rows (facetRowsOf). */
  set(id: number, stored: StoredRecord, keyRows: readonly (readonly [string, string])[]): void {
    // Grouped once by name, as each facet reads its own rows.
    const byName = new Map<string, string[]>();
    for (const [name, value] of keyRows) {
      const values = byName.get(name);
      if (values) values.push(value);
      else byName.set(name, [value]);
    }
    for (const column of this.columns) column.set(id, column.source(stored, byName));
  }

  flush(): void {
    for (const column of this.columns) column.flush();
  }

  /** Reads every facet's dictionary now, so a writer opened ahead of its writes (a served index's) has none of it to read in its first write. */
  warm(): void {
    for (const column of this.columns) column.dictionary();
  }

  /** After a write that rolled back: its new values' codes were never stored. */
  forget(): void {
    for (const column of this.columns) column.forget();
  }
}
