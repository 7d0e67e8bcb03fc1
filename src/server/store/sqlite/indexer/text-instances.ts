import type Database from 'better-sqlite3';
import { searchColumns, type SearchColumn } from '../../../../deployments/schema';
import { PieceTokenizer } from '../token-runs';
import { decodeInstances, HeldRange, WrittenRanges } from './instance-ranges';

/**
 * Every token's instances in a deployment's text, as a full build needs them: what an FTS5
 * index of the text and `fts5vocab` give (fts5-adapter.ts), with FTS5's own tokens
 * (token-runs.ts), gathered here by token instead of written into an index and read back
 * as text.
 *
 * Memory holds a range of records' instances at a time, some 3 bytes each; a build of more
 * writes each range's per token to a table in the temp schema and joins them from one
 * ordered read, as FTS5 merges its segments.
 */

/** Records tokenized at once: their pieces not yet known go to FTS5 in one batch. */
const pageRecords = 256;

/** Bytes of instances held in memory before a range is written out. */
const defaultRangeBytes = 256 * 1024 * 1024;

/**
 * Distinct tokens held before a range is written out: each costs a hundred bytes or more
 * beside its instances, and text of endless distinct words (numbers, hostile input) would
 * otherwise grow memory long before its instances fill a range.
 */
const defaultRangeTokens = 2_000_000;

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
  {
    rangeBytes = defaultRangeBytes,
    rangeTokens = defaultRangeTokens,
  }: { readonly rangeBytes?: number; readonly rangeTokens?: number } = {},
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
      if (id <= lengths.maxId && lengths.rows > 0)
        throw new Error(`record ${id} came after ${lengths.maxId}: texts are gathered by increasing id`);
      for (let column = 0; column < columns; column++) {
        const text = r * columns + column;
        const start = text === 0 ? 0 : ends[text - 1]!;
        for (let i = start; i < ends[text]!; i++) held.add(tokens[i]!, id, column, i - start);
      }
      lengths.set(id, ends[r * columns + columns - 1]! - (r === 0 ? 0 : ends[r * columns - 1]!));
    });
    page.length = 0;
    if (held.bytes >= rangeBytes || tokenizer.tokens.length >= rangeTokens) writeOut();
  };

  try {
    for (const record of texts) {
      page.push(record);
      if (page.length === pageRecords) tokenizePage();
    }
    if (page.length) tokenizePage();
    if (written && held.bytes > 0) writeOut();
  } catch (error) {
    drop();
    throw error;
  }
  const last = held;
  return {
    lengths: lengths.lengths.slice(0, lengths.maxId + 1),
    rows: lengths.rows,
    tokens: lengths.tokens,
    each: (visit) => (written ? written.each(visit) : last.each((token, bytes, count) => visit(token, decodeInstances([bytes], count)))),
    drop,
  };
}
