import { searchColumns, type SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { IdSet } from './id-set';
import { addPostings, type TokenPostings } from './postings';
import type { PostingsReader, StoredPostings } from './postings-reader';
import { prefixPhraseMatches } from './prefix-phrase';
import { scratchArray } from './scratch-arrays';
import { denseToList, k1, lengthNorms, phraseMatches } from './term-search';
import type { Criteria } from './types';
import { varintReader } from './varint';

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

/** A word's stored lists: one per token it expands to and column it is searched in; undefined for a phrase. */
function storedLists(
  reader: PostingsReader,
  tokens: readonly string[],
  prefix: boolean,
  columns: readonly SearchColumn[],
): StoredPostings[] | undefined {
  if (tokens.length !== 1) return undefined;
  const expanded = prefix ? reader.expand(tokens[0]!) : tokens;
  // A parameter's columns: only instances there count, in the count and in the idf.
  const scopes = columns.length === searchColumns.length ? [undefined] : columns;
  return expanded.flatMap((token) => scopes.map((column) => reader.read(token, column))).filter((list) => list !== undefined);
}

/**
 * The records a phrase, or a word of several stored lists, matches in `columns`, with its
 * column-weighted count in each.
 */
function wordPostings(
  reader: PostingsReader,
  tokens: readonly string[],
  stored: readonly StoredPostings[] | undefined,
  prefix: boolean,
  columns: readonly SearchColumn[],
): TokenPostings {
  if (!stored)
    return prefix
      ? prefixPhraseMatches(reader, tokens.slice(0, -1), tokens[tokens.length - 1]!, columns)
      : phraseMatches(reader, tokens, columns);
  if (stored.length === 0) return nothing;
  const countsById = new Uint32Array(reader.lengths.length);
  let hits = 0;
  for (const list of stored) hits += addPostings(list.data, countsById);
  return denseToList(countsById, hits);
}

/** What a query's text matches, and each record's bm25 score over the words and phrases that are not negated. */
export interface TextMatch {
  readonly set: IdSet;
  /** scores[id]; undefined when no word is scored (the text only excludes) or scoring was not asked for. */
  readonly scores: Float64Array | undefined;
}

/**
 * Matches the text criteria (all ANDed) as a set; undefined when there is no text.
 * `universe` gives every record, for a query that only excludes. Unless `scored`, no
 * score is computed (a count, facets, an order by a column). The scores are the reader's
 * array, valid until its next search.
 */
export function matchText(
  reader: PostingsReader,
  criteria: Criteria,
  capacity: number,
  universe: () => IdSet,
  scored: boolean,
): TextMatch | undefined {
  if (criteria.text.length === 0) return undefined;
  const { lengths } = reader;
  const norms = lengthNorms(reader);
  let scores: Float64Array | undefined;

  // A word's records; a scored word's bm25 term is added to each one's score as it is read,
  // in the query's order (the order of evaluation). The term is written out in both loops:
  // through a shared closure the loops ran measurably slower.
  const word = (node: Word, columns: readonly SearchColumn[], negated: boolean): IdSet => {
    const set = new IdSet(capacity);
    const sum =
      negated || !scored ? undefined : (scores ??= scratchArray(reader, 'scores', capacity, (length) => new Float64Array(length)).fill(0));
    // (FTS5 is given NUL as a space: predicate.ts.)
    const tokens = reader.tokenize(node.text.replace(/\u0000/g, ' '));
    const prefix = node.type === 'term' && node.prefix;
    const stored = tokens.length === 0 ? [] : storedLists(reader, tokens, prefix, columns);
    if (stored?.length === 1) {
      // One token in one column (or whole records), read straight from its stored bytes.
      const read = varintReader(stored[0]!.data);
      const docs = read();
      const idf = reader.idf(docs);
      for (let i = 0, id = 0; i < docs; i++) {
        id += read();
        const f = read();
        set.add(id);
        if (sum) sum[id] = sum[id]! + idf * ((f * (k1 + 1.0)) / (f + norms[lengths[id]!]!));
      }
      return set;
    }
    const { ids, counts } = wordPostings(reader, tokens, stored, prefix, columns);
    const idf = reader.idf(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const f = counts[i]!;
      set.add(id);
      if (sum) sum[id] = sum[id]! + idf * ((f * (k1 + 1.0)) / (f + norms[lengths[id]!]!));
    }
    return set;
  };

  const evaluate = (node: QueryNode, columns: readonly SearchColumn[], negated: boolean): IdSet => {
    switch (node.type) {
      case 'term':
      case 'phrase':
        return word(node, columns, negated);
      case 'not':
        return universe().andNot(evaluate(node.child, columns, !negated));
      case 'or':
        return node.children.map((child) => evaluate(child, columns, negated)).reduce((acc, set) => acc.or(set));
      case 'and': {
        // x AND NOT y is x without y: no detour through every record.
        const positive = node.children.filter((child) => child.type !== 'not');
        let set = positive.length
          ? positive.map((child) => evaluate(child, columns, negated)).reduce((acc, next) => acc.and(next))
          : universe();
        for (const child of node.children) if (child.type === 'not') set = set.andNot(evaluate(child.child, columns, !negated));
        return set;
      }
    }
  };
  const sets = criteria.text.map(({ columns, query }) => evaluate(query, columns, false));
  return { set: sets.reduce((acc, set) => acc.and(set)), scores };
}
