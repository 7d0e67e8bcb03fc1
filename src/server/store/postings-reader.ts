import type Database from 'better-sqlite3';
import type { Deployment, SearchColumn } from '../../deployments/schema';
import { scratchTokenizer } from './sqlite/fts5-adapter';
import { wholeRecord } from './postings';
import { ftsTokenizer, tablesOf } from './sqlite/schema';

/** One token's stored postings (postings.ts encodes them): how many documents, and the bytes. */
export interface StoredPostings {
  readonly docs: number;
  readonly data: Uint8Array;
}

/** What the engine reads: the index statistics bm25 uses, and postings by token. */
export interface PostingsReader {
  /** Rows in the index: bm25's N. */
  readonly rows: number;
  /** Average tokens per row, computed as FTS5 computes it. */
  readonly averageLength: number;
  /** lengths[id] is the number of tokens in the record (all columns): bm25's D. */
  readonly lengths: Uint32Array;
  /** The tokens FTS5 makes of `text` (a query word may become several, or none). */
  tokenize(text: string): string[];
  /** Every token of the index that starts with `prefix`, as FTS5 expands `prefix*`. */
  expand(prefix: string): string[];
  /** A token's postings over whole records, or in one column. */
  read(token: string, column?: SearchColumn): StoredPostings | undefined;
  /** A token's positions (postings.ts), for phrases. */
  positions(token: string): Uint8Array | undefined;
  /** bm25's inverse document frequency for a phrase in `hits` rows, as FTS5 computes it. */
  idf(hits: number): number;
}

/** A token's postings over whole records and its positions, for walking a phrase. */
export interface TokenBlobs {
  readonly docs: number;
  readonly postings: Uint8Array;
  readonly positions: Uint8Array;
}

export function tokenBlobs(reader: PostingsReader, token: string): TokenBlobs | undefined {
  const stored = reader.read(token);
  const positions = reader.positions(token);
  return stored && positions ? { docs: stored.docs, postings: stored.data, positions } : undefined;
}

/** Opens a deployment's postings on a read-only connection; undefined when it has none. */
export function openPostings(db: Database.Database, deployment: Deployment): PostingsReader | undefined {
  const t = tablesOf(deployment);
  const present = db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = ?`).pluck().get(t.lengths) as number;
  if (!present) return undefined;
  const stats = db.prepare(`SELECT rows, tokens, data FROM ${t.lengths}`).get() as
    { rows: number; tokens: number; data: Buffer } | undefined;
  if (!stats || stats.rows === 0) return undefined;
  // A copy, so the array is aligned and owns its memory.
  const lengths = new Uint32Array(new Uint8Array(stats.data).buffer);

  const tokenize = scratchTokenizer(db, `${t.fts}_tokenize`, ftsTokenizer);
  const byPrefix = db.prepare(`SELECT term FROM ${t.postings} WHERE col = '${wholeRecord}' AND term >= ? ORDER BY term`).pluck();
  const byToken = db.prepare(`SELECT docs, data FROM ${t.postings} WHERE col = ? AND term = ?`);
  const logarithm = db.prepare(`SELECT ln(?)`).pluck();
  // Built in the same transaction as the lengths: where those are, so are the positions.
  const positionsOf = db.prepare(`SELECT data FROM ${t.positions} WHERE term = ?`).pluck();

  return {
    rows: stats.rows,
    averageLength: stats.tokens / stats.rows,
    lengths,
    tokenize,
    expand(prefix) {
      const tokens: string[] = [];
      for (const token of byPrefix.iterate(prefix) as Iterable<string>) {
        if (!token.startsWith(prefix)) break;
        tokens.push(token);
      }
      return tokens;
    },
    read(token, column) {
      return byToken.get(column ?? wholeRecord, token) as StoredPostings | undefined;
    },
    positions(token) {
      return positionsOf.get(token) as Uint8Array | undefined;
    },
    idf(hits) {
      // FTS5: log((N - hits + 0.5) / (hits + 0.5)), raised to 1e-6 where it is not positive.
      const idf = logarithm.get((stats.rows - hits + 0.5) / (hits + 0.5)) as number;
      return idf > 0 ? idf : 1e-6;
    },
  };
}
