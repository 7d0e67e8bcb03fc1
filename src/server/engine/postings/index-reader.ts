import type { SearchColumn } from '../../../deployments/schema';
import type { Postings } from './block-postings';
import type { PositionParts } from './positions';
import type { RecordLengths } from './record-lengths';

/** What the engine reads of an index, whatever stores it: bm25's statistics, postings and positions by token. */
export interface PostingsReader {
  /** Rows in the index: bm25's N. */
  readonly rows: number;
  /** Average tokens per row, computed as FTS5 computes it. */
  readonly averageLength: number;
  /** lengths[id] is the number of tokens in the record (all columns): bm25's D. */
  readonly lengths: RecordLengths;
  /** The tokens FTS5 makes of `text` (a query word may become several, or none). */
  tokenize(text: string): readonly string[];
  /** Every token of the index that starts with `prefix`, as FTS5 expands `prefix*`. */
  expand(prefix: string): string[];
  /** A token's postings over whole records, or in one column. */
  read(token: string, column?: SearchColumn): Postings | undefined;
  /** Whether two adjacent tokens have a pair list (pairs.ts) over whole records, or in `column`: both are common, and the column is one of `pairColumns`. */
  hasPair(first: string, second: string, column?: SearchColumn): boolean;
  /** The pair list of two adjacent common tokens, over whole records or in one of `pairColumns`; undefined where they never stand so. */
  readPair(first: string, second: string, column?: SearchColumn): Postings | undefined;
  /** A token's positions (positions.ts), for phrases, in the parts its whole-record list is stored in. */
  positions(token: string): PositionParts | undefined;
  /** bm25's inverse document frequency for a phrase in `hits` rows, as FTS5 computes it. */
  idf(hits: number): number;
}

/** A token's postings over whole records and its positions, for walking a phrase. */
export interface TokenBlobs {
  readonly postings: Postings;
  readonly positions: PositionParts;
}

export function tokenBlobs(reader: PostingsReader, token: string): TokenBlobs | undefined {
  const postings = reader.read(token);
  const positions = reader.positions(token);
  return postings && positions ? { postings, positions } : undefined;
}
