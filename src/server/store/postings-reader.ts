import type Database from 'better-sqlite3';
import type { Deployment } from '../../deployments/schema';
import { StoredPostings } from '../engine/postings/block-postings';
import { DenseSets } from '../engine/postings/dense-sets';
import type { PostingsReader } from '../engine/postings/index-reader';
import { pairKey } from '../engine/postings/pairs';
import { wholeRecord } from '../engine/postings/positions';
import { storedCommon } from './pair-postings';
import { scratchTokenizer } from './sqlite/fts5-adapter';
import { ftsTokenizer, tablesOf } from './sqlite/schema';

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
  const byToken = db.prepare(`SELECT data FROM ${t.postings} WHERE col = ? AND term = ?`).pluck();
  const common = new Set(storedCommon(db, deployment));
  const byPair = db.prepare(`SELECT data FROM ${t.pairs} WHERE pair = ? AND col = ?`).pluck();
  const logarithm = db.prepare(`SELECT ln(?)`).pluck();
  // Built in the same transaction as the lengths: where those are, so are the positions.
  const positionsOf = db.prepare(`SELECT data FROM ${t.positions} WHERE term = ?`).pluck();

  // Lists in an eighth of the records or more; the last 64 used, 8 MB at a million records.
  const denseSets = new DenseSets(lengths.length, Math.max(1, stats.rows / 8), 64);

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
      const data = byToken.get(column ?? wholeRecord, token) as Uint8Array | undefined;
      if (!data) return undefined;
      const postings: StoredPostings = new StoredPostings(data, () => denseSets.recordsOf(`${column ?? wholeRecord} ${token}`, postings));
      return postings;
    },
    hasPair(first, second) {
      return common.has(first) && common.has(second);
    },
    readPair(first, second, column) {
      const data = byPair.get(pairKey(first, second), column ?? wholeRecord) as Uint8Array | undefined;
      return data && new StoredPostings(data);
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
