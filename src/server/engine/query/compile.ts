import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import type { YearRange } from '../../../formats/query-years';
import type { QueryNode } from '../../query/ast';
import type { IdSet } from '../id-set';
import { ComputedPostings, StoredPostings, noPostings, type Postings, type TokenPostings } from '../postings/block-postings';
import type { PostingsReader } from '../postings/index-reader';
import { scratchArray } from '../scratch-arrays';
import { blockBests, lengthNorms } from './bm25';
import { MergedPostings } from '../postings/merged-postings';
import { SummedCounts } from '../postings/summed-counts';
import { pairListWithout } from './pair-difference';
import { tokenListIn, tokenListsServe } from '../postings/token-columns';
import { phraseMatches } from './phrase';
import { prefixPhraseMatches } from './prefix-phrase';

/**
 * A search's text compiled once, for every shape of the query language (words, prefixes,
 * phrases, a phrase ending in a prefix, AND, OR, NOT, parentheses, parameters' columns):
 * a tree of boolean operators over leaves, each leaf one word or phrase as a postings list
 * with its idf. The tree says which records match (query/matching.ts, as bitsets); the
 * scored leaves, in the query's order, say how they rank (collector/, bm25 summed over the
 * leaves a record holds).
 *
 * A leaf is scored unless it sits under an odd number of NOTs, as in FTS5: `a -b` ranks by
 * a alone, `a -(b -c)` by a and c.
 */

export interface Leaf {
  readonly postings: Postings;
  /** bm25's idf, from the number of records the word or phrase is in (in its columns). */
  readonly idf: number;
  readonly scored: boolean;
}

export type MatchNode =
  | { readonly kind: 'leaf'; readonly leaf: Leaf }
  /** Records matched by something other than their words (a year word's publication dates), never scored. */
  | { readonly kind: 'records'; readonly records: () => IdSet }
  | { readonly kind: 'and' | 'or'; readonly children: readonly MatchNode[] }
  | { readonly kind: 'not'; readonly child: MatchNode };

export interface CompiledQuery {
  /** The criteria's text parts, all required. */
  readonly root: MatchNode;
  /** The scored leaves in the query's order: the order bm25's terms are summed in. */
  readonly scored: readonly Leaf[];
  /** Every match holds a scored leaf, so none scores 0 (`a OR -b` has matches that do not). */
  readonly everyMatchScored: boolean;
}

type Word = Extract<QueryNode, { type: 'term' | 'phrase' }>;

/**
 * A word's or phrase's postings in `columns`: a stored list as it is, several (a prefix's
 * expansions, a parameter's columns) merged by record, a phrase of two common tokens from
 * its pair lists (postings/pairs.ts) in those columns, or over whole records less the other
 * columns', where the pair keeps those, any other phrase from positions.
 */
function wordPostings(reader: PostingsReader, word: Word, columns: readonly SearchColumn[], within?: Int32Array): Postings {
  // (FTS5 is given NUL as a space: predicate.ts.)
  const tokens = reader.tokenize(word.text.replace(/\u0000/g, ' '));
  const prefix = word.type === 'term' && word.prefix;
  // A parameter's columns: only instances there count, in the count and in the idf.
  const scopes = columns.length === searchColumns.length ? [undefined] : columns;
  if (tokens.length === 0) return computed(reader, noPostings);
  if (tokens.length > 1) {
    if (prefix) return computed(reader, prefixPhraseMatches(reader, tokens.slice(0, -1), tokens[tokens.length - 1]!, columns));
    const [first, second] = tokens as [string, string];
    if (tokens.length === 2 && scopes.every((column) => reader.hasPair(first, second, column))) {
      return storedLists(
        reader,
        scopes.map((column) => () => reader.readPair(first, second, column)),
      );
    }
    const others = searchColumns.filter((column) => !columns.includes(column));
    if (tokens.length === 2 && reader.hasPair(first, second) && others.every((column) => reader.hasPair(first, second, column))) {
      const whole = reader.readPair(first, second);
      return computed(
        reader,
        whole
          ? pairListWithout(
              whole,
              others.map((column) => reader.readPair(first, second, column)),
            )
          : noPostings,
      );
    }
    return computed(reader, phraseMatches(reader, tokens, columns, within));
  }
  const expanded = prefix ? reader.expand(tokens[0]!) : tokens;
  if (scopes.every(tokenListIn)) {
    return storedLists(
      reader,
      expanded.flatMap((token) => scopes.map((column) => () => reader.read(token, column))),
    );
  }
  // Columns some of which keep no lists of their own (biblio=): each token's whole-record list less the others' lists.
  if (!tokenListsServe(columns)) throw new Error(`No token lists serve a search of ${columns.join(', ')}.`);
  const others = searchColumns.filter((column) => !columns.includes(column));
  return storedLists(
    reader,
    expanded.map((token) => () => reader.read(token)),
    expanded.flatMap((token) => others.map((column) => () => reader.read(token, column))),
  );
}

const computed = (reader: PostingsReader, list: TokenPostings) =>
  new ComputedPostings(list, blockBests(list, reader.lengths, lengthNorms(reader)));

/**
 * Stored lists searched as one: a single list as it is, several through the longest of them
 * or merged by record (postings/merged-postings.ts), and less the counts of `taken` merged
 * by record.
 */
function storedLists(
  reader: PostingsReader,
  lists: readonly (() => Postings | undefined)[],
  taken: readonly (() => Postings | undefined)[] = [],
): Postings {
  if (taken.length > 0) return mergedLess(reader, lists, taken);
  return MergedPostings.of(lists, reader.lengths, mergedCounts(reader), (list) => computed(reader, list)) ?? computed(reader, noPostings);
}

/** The reader's array of counts by record for merging lists, lent to one search and left all zeros again. */
const mergedCounts = (reader: PostingsReader) =>
  scratchArray(reader, 'merged counts', reader.lengths.length, (length) => new Uint32Array(length));

/** Lists merged by record, less the counts of `taken`, each read only when the merge comes to it. */
function mergedLess(
  reader: PostingsReader,
  lists: readonly (() => Postings | undefined)[],
  taken: readonly (() => Postings | undefined)[],
): Postings {
  const summed = new SummedCounts(mergedCounts(reader));
  try {
    for (const read of lists) {
      const list = read();
      if (list) summed.add(list);
    }
    // Lists within those added (a column's, within its token's whole-record list), their counts taken off again.
    for (const read of taken) {
      const list = read();
      if (list) summed.take(list);
    }
  } catch (error) {
    summed.clear();
    throw error;
  }
  return computed(reader, summed.readOut());
}

/** The records published in a range of years (the store's date column). */
export type PublishedIn = (years: YearRange) => IdSet;

/**
 * The text of `texts` (all required) compiled; undefined when there is none. Given `within`
 * (ascending ids), phrases read from positions are read in those records only: their
 * leaves then hold only those records, and their counts of records (the idf) are theirs.
 */
export function compileQuery(
  reader: PostingsReader,
  texts: readonly { readonly columns: readonly SearchColumn[]; readonly query: QueryNode }[],
  publishedIn?: PublishedIn,
  within?: Int32Array,
): CompiledQuery | undefined {
  if (texts.length === 0) return undefined;
  const scored: Leaf[] = [];
  const compile = (node: QueryNode, columns: readonly SearchColumn[], negated: boolean): MatchNode => {
    switch (node.type) {
      case 'term':
      case 'phrase': {
        const postings = wordPostings(reader, node, columns, within);
        const leaf = { postings, idf: reader.idf(postings.docs), scored: !negated };
        if (leaf.scored) scored.push(leaf);
        const years = node.type === 'term' ? node.years : undefined;
        // A year word: the word where it is written, or the year of publication, which adds matches but no score.
        if (years && publishedIn)
          return {
            kind: 'or',
            children: [
              { kind: 'leaf', leaf },
              { kind: 'records', records: () => publishedIn(years) },
            ],
          };
        return { kind: 'leaf', leaf };
      }
      case 'not':
        return { kind: 'not', child: compile(node.child, columns, !negated) };
      case 'and':
        return { kind: 'and', children: node.children.map((child) => compile(child, columns, negated)) };
      case 'or': {
        const children = node.children.map((child) => compile(child, columns, negated));
        return twinsAsOne(children, scored) ?? { kind: 'or', children };
      }
    }
  };
  const parts = texts.map(({ columns, query }) => compile(query, columns, false));
  const root: MatchNode = parts.length === 1 ? parts[0]! : { kind: 'and', children: parts };
  return { root, scored, everyMatchScored: holdsScoredLeaf(root) };
}

/**
 * An OR whose first two words are scored and stored in the same bytes (a word with an umlaut
 * and its transliteration, indexed together wherever the collection never spells one without
 * the other), with the two as one leaf of twice the idf, its list read once. Exact only where
 * they are the query's first terms: each record holds both, and FTS5's sum 0 + t + t is 2t,
 * which a doubled idf gives to the bit (a product scaled by two is exact); after other terms,
 * (s + t) + t may round otherwise than s + 2t. Replaces the two in `scored`; undefined where
 * it does not apply.
 */
function twinsAsOne(children: readonly MatchNode[], scored: Leaf[]): MatchNode | undefined {
  const [a, b, ...rest] = children;
  if (a?.kind !== 'leaf' || b?.kind !== 'leaf' || scored[0] !== a.leaf || scored[1] !== b.leaf) return undefined;
  if (!(a.leaf.postings instanceof StoredPostings) || !a.leaf.postings.sameAs(b.leaf.postings)) return undefined;
  const leaf: Leaf = { postings: a.leaf.postings, idf: 2 * a.leaf.idf, scored: true };
  scored.splice(0, 2, leaf);
  return rest.length === 0 ? { kind: 'leaf', leaf } : { kind: 'or', children: [{ kind: 'leaf', leaf }, ...rest] };
}

/** Whether every record `node` matches holds one of its scored leaves. */
function holdsScoredLeaf(node: MatchNode): boolean {
  switch (node.kind) {
    case 'leaf':
      return node.leaf.scored;
    case 'records':
      return false;
    case 'and':
      return node.children.some(holdsScoredLeaf);
    case 'or':
      return node.children.every(holdsScoredLeaf);
    case 'not':
      return false;
  }
}
