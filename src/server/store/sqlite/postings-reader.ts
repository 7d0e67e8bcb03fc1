import type Database from 'better-sqlite3';
import type { Deployment } from '../../../deployments/schema';
import { StoredPostings, type BlockTable, type Postings } from '../../engine/postings/block-postings';
import { KeptTables } from '../../engine/postings/kept-tables';
import { JoinedPostings } from '../../engine/postings/joined-postings';
import type { IdSet } from '../../engine/id-set';
import { DenseSets, denseFrom } from '../../engine/postings/dense-sets';
import type { PostingsReader } from '../../engine/postings/index-reader';
import { pairListIn } from '../../engine/postings/pairs';
import { recordLengths } from '../../engine/postings/record-lengths';
import { wholeRecord } from '../../engine/postings/positions';
import { storedCommon } from './indexer/pair-postings';
import { pairListReader } from './indexer/pair-rows';
import { positionsRows, termIdReader, termRow, termScopes } from './indexer/term-rows';
import { scratchTokenizer } from './fts5-adapter';
import { queryTokenizer } from './query-tokenizer';
import { tablesOf } from './schema';

/** Opens a deployment's postings on a read-only connection; undefined when it has none. */
export function openPostings(db: Database.Database, deployment: Deployment): PostingsReader | undefined {
  const t = tablesOf(deployment);
  const present = db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = ?`).pluck().get(t.lengths) as number;
  if (!present) return undefined;
  const stats = db.prepare(`SELECT rows, tokens, data FROM ${t.lengths}`).get() as
    { rows: number; tokens: number; data: Buffer } | undefined;
  if (!stats || stats.rows === 0) return undefined;
  // A copy, so the array is aligned and owns its memory.
  const lengths = recordLengths(new Uint32Array(new Uint8Array(stats.data).buffer));

  const tokenize = rememberingTokens(queryTokenizer(scratchTokenizer(db, `${t.tokenizing}_query`)));
  const byPrefix = db.prepare(`SELECT term FROM ${t.terms} WHERE term >= ? ORDER BY term`).pluck();
  const ids = new RememberedIds(termIdReader(db, deployment));
  const termId = (term: string) => ids.of(term);

  const logarithm = db.prepare(`SELECT ln(?)`).pluck();
  // Dense lists (isDense); their tables up to 16 bytes a record in all, 16 MB at a million records.
  const tokenList = tokenLists(db, deployment, ids, new KeptTables(denseFrom(stats.rows), 16 * lengths.length));
  const common = new Set(storedCommon(db, deployment));
  const pairList = pairListReader(db, deployment, [...common]);
  // Built in the same transaction as the lengths: where those are, so are the positions.
  const [positionsOf, tailPositionsOf] = [t.positions, t.positionsTail].map((table) => positionsRows(db, table));
  const storedDocs = db.prepare(`SELECT docs FROM ${t.postings} WHERE id = ?`).pluck();

  // Lists in an eighth of the records or more; the last 64 used, 8 MB at a million records.
  const denseSets = new DenseSets(lengths.length, denseFrom(stats.rows), 64);

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
      const postings = tokenList(token, column ?? wholeRecord, () => denseSets.recordsOf(`${column ?? wholeRecord} ${token}`, postings!));
      return postings;
    },
    hasPair(first, second, column) {
      return common.has(first) && common.has(second) && pairListIn(column);
    },
    readPair(first, second, column) {
      return pairList(first, second, column);
    },
    positions(token) {
      const id = termId(token);
      const [data] = id === undefined ? [] : positionsOf!.read(id);
      if (!data) return undefined;
      const [tail] = tailPositionsOf!.read(id!);
      // A tail's positions go with the whole-record list's tail, which starts after the stored list's documents.
      return tail
        ? { parts: [data, tail], starts: [0, storedDocs.get(termRow(id!, wholeRecord)) as number] }
        : { parts: [data], starts: [0] };
    },
    idf(hits) {
      // FTS5: log((N - hits + 0.5) / (hits + 0.5)), raised to 1e-6 where it is not positive.
      const idf = logarithm.get((stats.rows - hits + 0.5) / (hits + 0.5)) as number;
      return idf > 0 ? idf : 1e-6;
    },
  };
}

/** A token's list in col, joined with its tail where writes appended one (postings-tails.ts). */
function tokenLists(db: Database.Database, deployment: Deployment, ids: RememberedIds, kept: KeptTables) {
  const t = tablesOf(deployment);
  // The token's number, its list and its tail in one statement: a statement per step cost twice as much as the read.
  const lookup = db
    .prepare(
      `SELECT term.id, whole.data, tail.data FROM ${t.terms} AS term
         LEFT JOIN ${t.postings} AS whole ON whole.id = term.id * ${termScopes} + ?
         LEFT JOIN ${t.postingsTail} AS tail ON tail.id = whole.id
         WHERE term.term = ?`,
    )
    .raw();
  const [whole, tail] = [t.postings, t.postingsTail].map((name) => db.prepare(`SELECT data FROM ${name} WHERE id = ?`).pluck());
  return (name: string, column: string, records?: () => IdSet): Postings | undefined => {
    let data: Uint8Array | null | undefined;
    let appended: Uint8Array | null | undefined;
    let row: number;
    const known = ids.known(name);
    if (known === undefined) {
      const found = lookup.get(termRow(0, column), name) as [number, Uint8Array | null, Uint8Array | null] | undefined;
      ids.remember(name, found?.[0]);
      if (!found) return undefined;
      [, data, appended] = found;
      row = termRow(found[0], column);
    } else {
      if (known.id === undefined) return undefined;
      row = termRow(known.id, column);
      const tables = kept.get(row);
      if (tables) return postingsOf(tables, records);
      data = whole!.get(row) as Uint8Array | undefined;
      appended = data && (tail!.get(row) as Uint8Array | undefined);
    }
    if (!data) return undefined;
    return postingsOf(kept.read(row, appended ? [data, appended] : [data]), records);
  };
}

/** A list read from its tables: a stored list's, joined with its tail's where it has one. */
function postingsOf(tables: readonly BlockTable[], records?: () => IdSet): Postings {
  const [first, second] = tables;
  return second ? new JoinedPostings(new StoredPostings(first!), new StoredPostings(second), records) : new StoredPostings(first!, records);
}

/** Query words whose tokens a reader remembers; past this many it forgets them all and starts again. */
const rememberedWords = 4096;

/** A reader's tokens' numbers in the term dictionary (one snapshot's, so never stale), as many as it remembers words. */
class RememberedIds {
  private readonly ids = new Map<string, number | undefined>();

  constructor(private readonly read: (term: string) => number | undefined) {}

  /** The token's number, if it was looked up before: `{ id: undefined }` where it has none. */
  known(term: string): { id: number | undefined } | undefined {
    return this.ids.has(term) ? { id: this.ids.get(term) } : undefined;
  }

  remember(term: string, id: number | undefined): void {
    if (this.ids.size >= rememberedWords) this.ids.clear();
    this.ids.set(term, id);
  }

  of(term: string): number | undefined {
    if (this.ids.has(term)) return this.ids.get(term);
    const id = this.read(term);
    this.remember(term, id);
    return id;
  }
}

/**
 * A tokenizer that remembers what it made of each text: searches repeat their words far more
 * than their queries, and a text FTS5 must tokenize itself (query-tokenizer.ts) costs tens of
 * microseconds, as much as ranking an OR of two words.
 */
export function rememberingTokens(tokenize: (text: string) => string[]): (text: string) => readonly string[] {
  const known = new Map<string, readonly string[]>();
  return (text) => {
    let tokens = known.get(text);
    if (!tokens) {
      if (known.size >= rememberedWords) known.clear();
      tokens = Object.freeze(tokenize(text));
      known.set(text, tokens);
    }
    return tokens;
  };
}
