import type Database from 'better-sqlite3';
import { searchColumns, type Deployment, type SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { scratchTokenizer } from './sqlite/fts5-adapter';
import { searchModel } from '../../deployments/search-model';
import { tablesOf } from './sqlite/schema';
import { storedTexts } from './sqlite/stored-text';
import type { Criteria } from './types';

/**
 * The search definition, written the plain way for tests to hold the engine to: every
 * record's text tokenized with the index's tokenizer, every word and phrase counted by
 * scanning those tokens, and bm25 summed as engine/query/bm25.ts documents it. Nothing here is
 * fast or shared with the engine but the tokenizer and SQLite's logarithm.
 */

type Word = Extract<QueryNode, { type: 'term' | 'phrase' }>;

export interface ReferenceIndex {
  /** Every record: id, repo_id, its year of publication, and its tokens per search column. */
  readonly records: readonly { id: number; repoId: string; year?: number; tokens: readonly string[][] }[];
  readonly averageLength: number;
  /** bm25's weight of each search column, as the deployment's search model sets it. */
  readonly weights: ReadonlyMap<SearchColumn, number>;
  tokenize(text: string): string[];
  ln(x: number): number;
}

export function referenceIndex(db: Database.Database, deployment: Deployment): ReferenceIndex {
  const t = tablesOf(deployment);
  const tokenize = scratchTokenizer(db, 'reference_tokenize');
  const rowOf = db.prepare<[number], { repo_id: string; published: string | null }>(
    `SELECT repo_id, publication_date AS published FROM ${t.records} WHERE id = ?`,
  );
  const records = [...storedTexts(db, deployment)].map(([id, text]) => {
    const row = rowOf.get(id)!;
    return {
      id,
      repoId: row.repo_id,
      ...(typeof row.published === 'string' && /^\d{4}/.test(row.published) ? { year: Number(row.published.slice(0, 4)) } : {}),
      tokens: searchColumns.map((column) => (text[column] ? tokenize(text[column]) : [])),
    };
  });
  const total = records.reduce((sum, record) => sum + record.tokens.reduce((n, list) => n + list.length, 0), 0);
  const ln = db.prepare('SELECT ln(?)').pluck();
  const weights = new Map(searchModel(deployment).index.columns.map(({ name, weight }) => [name, weight]));
  return { records, averageLength: total / records.length, weights, tokenize, ln: (x) => ln.get(x) as number };
}

/** A query word's tokens, once for all the records it is looked for in. */
const wordTokens = new WeakMap<Word, string[]>();
function tokensOf(index: ReferenceIndex, word: Word): string[] {
  let tokens = wordTokens.get(word);
  if (!tokens) wordTokens.set(word, (tokens = index.tokenize(word.text.replace(/\u0000/g, ' '))));
  return tokens;
}

/** How often `word` occurs in the record's `columns`, each occurrence weighted by its column. */
function occurrences(index: ReferenceIndex, tokens: readonly string[][], word: Word, columns: readonly SearchColumn[]): number {
  const query = tokensOf(index, word);
  const prefix = word.type === 'term' && word.prefix;
  if (query.length === 0) return 0;
  let count = 0;
  for (const column of columns) {
    const list = tokens[searchColumns.indexOf(column)]!;
    for (let start = 0; start + query.length <= list.length; start++) {
      const all = query.every((token, j) =>
        prefix && j === query.length - 1 ? list[start + j]!.startsWith(token) : list[start + j] === token,
      );
      if (all) count += index.weights.get(column)!;
    }
  }
  return count;
}

/** The records matching `criteria`'s text, best first (or worst first for order=asc), ties by repo_id; and whether any word is scored. */
export function referenceRank(index: ReferenceIndex, criteria: Criteria): { ids: number[]; scored: boolean } {
  const k1 = 1.2;
  const b = 0.75;
  const N = index.records.length;
  const scoredWords: { word: Word; columns: readonly SearchColumn[] }[] = [];
  const collect = (node: QueryNode, columns: readonly SearchColumn[], negated: boolean): void => {
    if (node.type === 'term' || node.type === 'phrase') {
      if (!negated) scoredWords.push({ word: node, columns });
    } else if (node.type === 'not') collect(node.child, columns, !negated);
    else for (const child of node.children) collect(child, columns, negated);
  };
  for (const { columns, query } of criteria.text) collect(query, columns, false);

  type Held = ReferenceIndex['records'][number];
  const matches = (node: QueryNode, columns: readonly SearchColumn[], record: Held): boolean => {
    switch (node.type) {
      case 'term':
      case 'phrase': {
        // A year word of the main search also matches a record published in those years.
        const years = node.type === 'term' ? node.years : undefined;
        const published = years !== undefined && record.year !== undefined && record.year >= years.from && record.year <= years.to;
        return published || occurrences(index, record.tokens, node, columns) > 0;
      }
      case 'not':
        return !matches(node.child, columns, record);
      case 'and':
        return node.children.every((child) => matches(child, columns, record));
      case 'or':
        return node.children.some((child) => matches(child, columns, record));
    }
  };
  const counts = scoredWords.map(({ word, columns }) => index.records.map((record) => occurrences(index, record.tokens, word, columns)));
  const idfs = counts.map((list) => {
    const hits = list.filter((count) => count > 0).length;
    const idf = index.ln((N - hits + 0.5) / (hits + 0.5));
    return idf > 0 ? idf : 1e-6;
  });
  const results: { id: number; repoId: string; score: number }[] = [];
  index.records.forEach((record, r) => {
    if (!criteria.text.every(({ columns, query }) => matches(query, columns, record))) return;
    const D = record.tokens.reduce((n, list) => n + list.length, 0);
    const norm = k1 * (1 - b + (b * D) / index.averageLength);
    let score = 0;
    counts.forEach((list, p) => {
      const f = list[r]!;
      if (f > 0) score += idfs[p]! * ((f * (k1 + 1.0)) / (f + norm));
    });
    results.push({ id: record.id, repoId: record.repoId, score });
  });
  const sign = criteria.order === 'asc' ? -1 : 1;
  results.sort((x, y) => (x.score !== y.score ? sign * (y.score - x.score) : x.repoId < y.repoId ? -1 : x.repoId > y.repoId ? 1 : 0));
  return { ids: results.map((result) => result.id), scored: scoredWords.length > 0 };
}
