import type Database from 'better-sqlite3';
import { searchColumns, type SearchColumn } from '../../../../deployments/schema';
import { maxTokenChars } from '../fts5-adapter';
import { PieceTokenizer } from '../token-runs';

/**
 * Every token's instances in a deployment's text, as a full build needs them: what an FTS5
 * index of the text and `fts5vocab` give (fts5-adapter.ts), with FTS5's own tokens
 * (token-runs.ts), gathered here by token instead of written into an index and read back
 * as text.
 *
 * Memory holds a range of records' instances at a time (12 bytes each); a build of more
 * writes each range's per token to a table in the temp schema and joins them from one
 * ordered read, as FTS5 merges its segments.
 */

/** Records tokenized at once: their pieces not yet known go to FTS5 in one batch. */
const pageRecords = 256;

/** Rows of the ranges' table read at a time. */
const pageRows = 256;

/** Instances held in memory before a range is written out. */
const defaultRangeInstances = 12_000_000;

export interface TextInstances {
  /** Each record's token count over all columns (long tokens too), by id. */
  readonly lengths: Uint32Array;
  /** bm25's totals: the records, and the tokens of all. */
  readonly rows: number;
  readonly tokens: number;
  /**
   * Calls `visit` with every token of at most `maxTokenChars` characters, in the order of
   * their UTF-8 bytes (as FTS5 lists them), and its instances as (record, column, offset)
   * triples in that order, the column as its place in `searchColumns`.
   */
  each(visit: (token: string, triples: Int32Array) => void): void;
  /** Drops what the temp schema holds. */
  drop(): void;
}

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

/** A range's instances by token number, each token's as growing (record, column, offset) triples. */
class HeldRange {
  private lists: (Int32Array | undefined)[] = [];
  private filled = new Int32Array(1024);
  /** Per token number: 1 kept, 2 too long to index, 0 not yet known. */
  private kept = new Uint8Array(1024);
  instances = 0;

  constructor(private readonly tokens: readonly string[]) {}

  private keptToken(n: number): boolean {
    if (n >= this.kept.length) {
      const kept = new Uint8Array(Math.max(n + 1, this.kept.length * 2));
      kept.set(this.kept);
      this.kept = kept;
      const filled = new Int32Array(kept.length);
      filled.set(this.filled);
      this.filled = filled;
    }
    if (this.kept[n] === 0) this.kept[n] = codePoints(this.tokens[n]!) <= maxTokenChars ? 1 : 2;
    return this.kept[n] === 1;
  }

  add(n: number, id: number, column: number, offset: number): void {
    this.instances++;
    if (!this.keptToken(n)) return;
    let list = this.lists[n];
    const at = this.filled[n]!;
    if (!list) this.lists[n] = list = new Int32Array(12);
    else if (at + 3 > list.length) {
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.lists[n] = list = grown;
    }
    list[at] = id;
    list[at + 1] = column;
    list[at + 2] = offset;
    this.filled[n] = at + 3;
  }

  /** Each token held, in UTF-8 order, with its triples. */
  each(visit: (token: string, triples: Int32Array) => void): void {
    const numbers: number[] = [];
    for (let n = 0; n < this.lists.length; n++) if (this.lists[n] && this.filled[n]! > 0) numbers.push(n);
    numbers.sort((a, b) => compareCodePoints(this.tokens[a]!, this.tokens[b]!));
    for (const n of numbers) visit(this.tokens[n]!, this.lists[n]!.subarray(0, this.filled[n]));
  }
}

/** Ranges written out to a table of the temp schema, each token's triples a row per range. */
class WrittenRanges {
  private readonly write: Database.Statement;
  private readonly page: Database.Statement;
  ranges = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {
    db.exec(
      `CREATE TABLE ${table} (token TEXT NOT NULL, range INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (token, range)) WITHOUT ROWID`,
    );
    this.write = db.prepare(`INSERT INTO ${table} (token, range, data) VALUES (?, ?, ?)`);
    this.page = db
      .prepare(`SELECT token, range, data FROM ${table} WHERE (token, range) > (?, ?) ORDER BY token, range LIMIT ${pageRows}`)
      .raw();
  }

  add(range: HeldRange): void {
    range.each((token, triples) => this.write.run(token, this.ranges, Buffer.from(triples.buffer, triples.byteOffset, triples.byteLength)));
    this.ranges++;
  }

  /** Each token, in UTF-8 order, with its ranges' triples joined; read a page at a time, as `visit` writes on the same connection. */
  each(visit: (token: string, triples: Int32Array) => void): void {
    let token: string | undefined;
    let parts: Buffer[] = [];
    const done = () => {
      if (token === undefined) return;
      const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
      visit(token, new Int32Array(bytes.buffer));
    };
    let after: [string, number] = ['', -1];
    for (;;) {
      const rows = this.page.all(...after) as [string, number, Buffer][];
      for (const [next, , data] of rows) {
        if (next !== token) {
          done();
          token = next;
          parts = [];
        }
        parts.push(data);
      }
      if (rows.length < pageRows) break;
      after = [rows[rows.length - 1]![0], rows[rows.length - 1]![1]];
    }
    done();
  }
}

type ColumnTexts = Readonly<Record<SearchColumn, string>>;

/** Record lengths by id, and their totals. */
class Lengths {
  lengths = new Uint32Array(1024);
  maxId = 0;
  rows = 0;
  tokens = 0;

  set(id: number, length: number): void {
    if (id >= this.lengths.length) {
      const grown = new Uint32Array(Math.max(id + 1, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[id] = length;
    this.maxId = Math.max(this.maxId, id);
    this.rows++;
    this.tokens += length;
  }
}

/** The instances of every token in `texts` (records by increasing id), gathered with scratch tables named after `name`. */
export function textInstances(
  db: Database.Database,
  name: string,
  texts: Iterable<readonly [number, ColumnTexts]>,
  { rangeInstances = defaultRangeInstances }: { readonly rangeInstances?: number } = {},
): TextInstances {
  const tokenizer = new PieceTokenizer(db, `${name}_tokens`);
  const columns = searchColumns.length;
  const lengths = new Lengths();
  let held = new HeldRange(tokenizer.tokens);
  let written: WrittenRanges | undefined;
  const drop = () =>
    db.exec(
      `DROP TABLE IF EXISTS temp.${name}_tokens_instances; DROP TABLE IF EXISTS temp.${name}_tokens; DROP TABLE IF EXISTS temp.${name}_ranges`,
    );
  const writeOut = () => {
    (written ??= new WrittenRanges(db, `temp.${name}_ranges`)).add(held);
    // Tokens are numbered afresh for the next range, so what is kept by number stays small.
    tokenizer.reset();
    held = new HeldRange(tokenizer.tokens);
  };

  const page: (readonly [number, ColumnTexts])[] = [];
  const tokenizePage = () => {
    const { tokens, ends } = tokenizer.tokenize(page.flatMap(([, text]) => searchColumns.map((column) => text[column])));
    page.forEach(([id], r) => {
      for (let column = 0; column < columns; column++) {
        const text = r * columns + column;
        const start = text === 0 ? 0 : ends[text - 1]!;
        for (let i = start; i < ends[text]!; i++) held.add(tokens[i]!, id, column, i - start);
      }
      lengths.set(id, ends[r * columns + columns - 1]! - (r === 0 ? 0 : ends[r * columns - 1]!));
    });
    page.length = 0;
    if (held.instances >= rangeInstances) writeOut();
  };

  try {
    for (const record of texts) {
      page.push(record);
      if (page.length === pageRecords) tokenizePage();
    }
    if (page.length) tokenizePage();
    if (written && held.instances > 0) writeOut();
  } catch (error) {
    drop();
    throw error;
  }
  const last = held;
  return {
    lengths: lengths.lengths.slice(0, lengths.maxId + 1),
    rows: lengths.rows,
    tokens: lengths.tokens,
    each: (visit) => (written ? written.each(visit) : last.each(visit)),
    drop,
  };
}
