import { searchColumns, type SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { IdSet } from './id-set';
import { addPostings, decodePostings, type TokenPostings } from './postings';
import type { PostingsReader } from './postings-reader';
import { prefixPhraseMatches } from './prefix-phrase';
import { denseToList, k1, lengthNorms, phraseMatches, type Matches } from './term-search';
import type { Criteria } from './types';

/**
 * Every shape of the query language matched and ranked from the postings: words,
 * prefixes, phrases (a phrase's last word may be a prefix), AND, OR, NOT and parameters'
 * columns. (Plain ANDs of words take term-search.ts's faster route to the same scores.)
 *
 * Matching is set algebra over the records each word or phrase matches. Ranking is bm25
 * as FTS5 defines it: a record's score sums, in the query's order, idf × f(k1 + 1) /
 * (f + k1(1 − b + b·D/avgdl)) over the words and phrases that are not negated, f being the
 * column-weighted count in the record (a word it lacks adds nothing), idf coming from the
 * number of records holding the word or phrase. text-search.test.ts checks it against a
 * plain reimplementation of that definition.
 */

type Word = Extract<QueryNode, { type: 'term' | 'phrase' }>;

const nothing: TokenPostings = { ids: new Int32Array(0), counts: new Uint32Array(0) };

/** The records a word or phrase matches in `columns`, with its column-weighted count in each. */
export function wordPostings(reader: PostingsReader, word: Word, columns: readonly SearchColumn[]): TokenPostings {
  // (FTS5 is given NUL as a space: predicate.ts.)
  const tokens = reader.tokenize(word.text.replace(/\u0000/g, ' '));
  const prefix = word.type === 'term' && word.prefix;
  if (tokens.length === 0) return nothing;
  if (tokens.length > 1) return prefix ? prefixPhraseMatches(reader, tokens.slice(0, -1), tokens[tokens.length - 1]!, columns) : phraseMatches(reader, tokens, columns);
  const expanded = prefix ? reader.expand(tokens[0]!) : tokens;
  // A parameter's columns: only instances there count, in the count and in the idf.
  const scopes = columns.length === searchColumns.length ? [undefined] : columns;
  const stored = expanded.flatMap((token) => scopes.map((column) => reader.read(token, column))).filter((list) => list !== undefined);
  if (stored.length === 0) return nothing;
  if (stored.length === 1) return decodePostings(stored[0]!.data);
  const countsById = new Uint32Array(reader.lengths.length);
  let hits = 0;
  for (const list of stored) hits += addPostings(list.data, countsById);
  return denseToList(countsById, hits);
}

/** What a query's text matches, and the words and phrases its score sums over. */
export interface TextMatch {
  /** undefined: the text only excludes (every record but those). */
  readonly set: IdSet;
  readonly scored: readonly TokenPostings[];
}

/**
 * Matches the text criteria (all ANDed) as a set; undefined when there is no text.
 * `universe` gives every record, for a query that only excludes.
 */
export function matchText(reader: PostingsReader, criteria: Criteria, capacity: number, universe: () => IdSet): TextMatch | undefined {
  if (criteria.text.length === 0) return undefined;
  const scored: TokenPostings[] = [];
  const evaluate = (node: QueryNode, columns: readonly SearchColumn[], negated: boolean): IdSet => {
    switch (node.type) {
      case 'term':
      case 'phrase': {
        const postings = wordPostings(reader, node, columns);
        if (!negated) scored.push(postings);
        return IdSet.of(postings.ids, capacity);
      }
      case 'not':
        return universe().andNot(evaluate(node.child, columns, !negated));
      case 'or':
        return node.children.map((child) => evaluate(child, columns, negated)).reduce((acc, set) => acc.or(set));
      case 'and': {
        // x AND NOT y is x without y: no detour through every record.
        const positive = node.children.filter((child) => child.type !== 'not');
        let set = positive.length ? positive.map((child) => evaluate(child, columns, negated)).reduce((acc, next) => acc.and(next)) : universe();
        for (const child of node.children) if (child.type === 'not') set = set.andNot(evaluate(child.child, columns, !negated));
        return set;
      }
    }
  };
  const sets = criteria.text.map(({ columns, query }) => evaluate(query, columns, false));
  return { set: sets.reduce((acc, set) => acc.and(set)), scored };
}

/** The matches (within `filter`) in id order with their bm25 scores, summed over `scored`. */
export function scoreText(reader: PostingsReader, match: TextMatch, filter: IdSet | undefined): Matches {
  const { lengths } = reader;
  const norms = lengthNorms(reader);
  const set = filter ? match.set.and(filter) : match.set;
  // Scores summed by id, phrase after phrase in query order, then read out for the matches.
  const byId = new Float64Array(lengths.length);
  for (const phrase of match.scored) {
    const idf = reader.idf(phrase.ids.length);
    const { ids: phraseIds, counts } = phrase;
    for (let i = 0; i < phraseIds.length; i++) {
      const id = phraseIds[i]!;
      const f = counts[i]!;
      byId[id] = byId[id]! + idf * ((f * (k1 + 1.0)) / (f + norms[lengths[id]!]!));
    }
  }
  const ids = set.toIds();
  const scores = new Float64Array(ids.length);
  for (let j = 0; j < ids.length; j++) scores[j] = byId[ids[j]!]!;
  return { ids, scores };
}
