import type Database from 'better-sqlite3';
import { searchColumns, type SearchColumn } from '../../../../deployments/schema';
import { PieceTokenizer } from '../token-runs';
import { decodeInstances, HeldRange, WrittenRanges } from './instance-ranges';
import type { PairHelper } from './pair-ranges';

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
  /** Where the text was gathered on a thread of its own (gather-thread.ts): that thread, to share the pair lists' build. */
  readonly pairHelper?: PairHelper;
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

/**
 * Gathers the instances of every token of records given one at a time by increasing id,
 * with scratch tables named after `name`: a full build's text is gathered as its records are
 * written, where drawing it back from their stored bodies afterwards would decode and parse
 * each again. `finish` gives what was gathered; `drop` what the temp schema holds.
 */
export class InstanceGatherer {
  private readonly tokenizer: PieceTokenizer;
  private readonly lengths = new Lengths();
  private held: HeldRange;
  private written: WrittenRanges | undefined;
  private readonly page: (readonly [number, ColumnTexts])[] = [];
  private readonly rangeBytes: number;
  private readonly rangeTokens: number;

  constructor(
    private readonly db: Database.Database,
    private readonly name: string,
    {
      rangeBytes = defaultRangeBytes,
      rangeTokens = defaultRangeTokens,
    }: { readonly rangeBytes?: number; readonly rangeTokens?: number } = {},
  ) {
    // Whatever a gatherer of the same name left (its drop rolled back with a failed write) goes first.
    this.drop();
    this.tokenizer = new PieceTokenizer(db, `${name}_tokens`);
    this.held = new HeldRange(this.tokenizer.tokens);
    this.rangeBytes = rangeBytes;
    this.rangeTokens = rangeTokens;
  }

  /** Drops what the temp schema holds. */
  drop(): void {
    const { name } = this;
    this.db.exec(
      `DROP TABLE IF EXISTS temp.${name}_tokens_instances; DROP TABLE IF EXISTS temp.${name}_tokens; DROP TABLE IF EXISTS temp.${name}_ranges`,
    );
  }

  /** Record `id`'s text: ids must increase from one record to the next. */
  add(id: number, text: ColumnTexts): void {
    const last = this.page.length ? this.page[this.page.length - 1]![0] : this.lengths.rows > 0 ? this.lengths.maxId : -Infinity;
    if (id <= last) throw new Error(`record ${id} came after ${last}: texts are gathered by increasing id`);
    this.page.push([id, text]);
    if (this.page.length === pageRecords) this.tokenizePage();
  }

  private writeOut(): void {
    (this.written ??= new WrittenRanges(this.db, `temp.${this.name}_ranges`)).add(this.held);
    // Tokens are numbered afresh for the next range, so what is kept by number stays small.
    this.tokenizer.reset();
    this.held = new HeldRange(this.tokenizer.tokens);
  }

  private tokenizePage(): void {
    const { page, lengths, held } = this;
    const columns = searchColumns.length;
    const { tokens, ends } = this.tokenizer.tokenize(page.flatMap(([, text]) => searchColumns.map((column) => text[column])));
    page.forEach(([id], r) => {
      for (let column = 0; column < columns; column++) {
        const text = r * columns + column;
        const start = text === 0 ? 0 : ends[text - 1]!;
        for (let i = start; i < ends[text]!; i++) held.add(tokens[i]!, id, column, i - start);
      }
      lengths.set(id, ends[r * columns + columns - 1]! - (r === 0 ? 0 : ends[r * columns - 1]!));
    });
    page.length = 0;
    if (held.bytes >= this.rangeBytes || this.tokenizer.tokens.length >= this.rangeTokens) this.writeOut();
  }

  /** Every token's instances of the records added. */
  finish(): TextInstances {
    if (this.page.length) this.tokenizePage();
    if (this.written && this.held.bytes > 0) this.writeOut();
    const { lengths, written, held: last } = this;
    return {
      lengths: lengths.lengths.slice(0, lengths.maxId + 1),
      rows: lengths.rows,
      tokens: lengths.tokens,
      each: (visit) => (written ? written.each(visit) : last.each((token, bytes, count) => visit(token, decodeInstances([bytes], count)))),
      drop: () => this.drop(),
    };
  }
}

/** The instances of every token in `texts` (records by increasing id), gathered with scratch tables named after `name`. */
export function textInstances(
  db: Database.Database,
  name: string,
  texts: Iterable<readonly [number, ColumnTexts]>,
  ranges: { readonly rangeBytes?: number; readonly rangeTokens?: number } = {},
): TextInstances {
  const gatherer = new InstanceGatherer(db, name, ranges);
  try {
    for (const [id, text] of texts) gatherer.add(id, text);
    return gatherer.finish();
  } catch (error) {
    gatherer.drop();
    throw error;
  }
}
