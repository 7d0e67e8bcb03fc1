import type { SearchColumn } from '../../deployments/schema';
import type { QueryNode } from '../query/ast';
import { scoreEverything, topByBlockMax } from './collector/block-max';
import { scoreMatches, scoreRecords } from './collector/scored-matches';
import { BestOf, deepOrder, topOrder, type Matches } from './collector/top-k';
import { scoreUnion, topOfUnion } from './collector/union';
import { IdSet } from './id-set';
import type { PostingsReader } from './postings/index-reader';
import { lengthNorms } from './query/bm25';
import { compileQuery, type CompiledQuery, type Leaf, type MatchNode, type PublishedIn } from './query/compile';
import { matchSet, recordsLedByShortest } from './query/matching';
import { isDense } from './postings/dense-sets';

/**
 * The one search path over postings, for every query: the text is compiled once
 * (query/compile.ts); what it matches, with the filters, is a bitset (query/matching.ts),
 * counted without scoring — a single word's count is its document frequency; the first
 * records by bm25 come from block-max MaxScore (collector/block-max.ts), or, where it
 * cannot prune (worst first, deep pages), from scoring every match (collector/top-k.ts).
 */

export interface TextSearchOptions {
  /** One more than the largest record id: the size of every set. */
  readonly capacity: number;
  /** Every record, for a query that only excludes. */
  readonly universe: () => IdSet;
  /** The records the other criteria (dates, keys, facets) allow; undefined: all. */
  readonly filter: IdSet | undefined;
  /** The records published in a range of years, for year words of the main search; without it they are words only. */
  readonly publishedIn?: PublishedIn;
}

/**
 * An OR of words whose lists hold at most this many records in all is ranked and counted
 * together (collector/union.ts: for a first page, its ids decoded into one bitset that
 * counts them, then only the records that could enter the heap scored; as one list of
 * matches for other orders); counted alone, its ids go into one bitset unscored. Longer
 * ones are counted through bitsets and ranked by block-max, which skips most of their blocks.
 */
const shortUnion = 65_536;

/** Whether the records `node` matches are exactly those of its scored leaves: a scored word or phrase, or an OR of them. */
function unionOfScored(node: MatchNode): boolean {
  return node.kind === 'leaf' ? node.leaf.scored : node.kind === 'or' && node.children.every(unionOfScored);
}

/** Whether no two leaves read the same list object (each decodes its blocks into its own buffers). */
function distinctLists(scored: readonly Leaf[]): boolean {
  return new Set(scored.map(({ postings }) => postings)).size === scored.length;
}

/** One word filtered to at most this share of its records is scored from the filter's side (collector/scored-matches.ts). */
const fewOfWord = 1 / 8;

/**
 * An AND matching at most this many records has them scored from their side
 * (collector/scored-matches.ts): its lists are read only where they hold a match, where
 * block-max would decode a common word's blocks through every window a rare word's records reach.
 */
const fewOfAnd = 8192;

/** A filter allowing at most this many records has its phrases read in those records first (TextSearch.of). */
const fewRecords = 64;

/** The filter's records, ascending, when it allows only a few. */
function fewAllowed(filter: IdSet | undefined): Int32Array | undefined {
  if (!filter) return undefined;
  return filter.count() <= fewRecords ? filter.toIds() : undefined;
}

function hasPhrase(node: QueryNode): boolean {
  switch (node.type) {
    case 'phrase':
      return true;
    case 'term':
      return false;
    case 'not':
      return hasPhrase(node.child);
    default:
      return node.children.some(hasPhrase);
  }
}

export class TextSearch {
  private matched: IdSet | undefined;
  /** How many records `matched` holds, once counted (a filtered word counts them to choose how to score, then for the total). */
  private matchedCount: number | undefined;
  private unionScores: Matches | undefined;
  /** A short union's count, met as its first records were ranked. */
  private unionTotal: number | undefined;
  /** An AND's matches read from its shortest list's side (led), once worked out; null where that does not apply. */
  private ledIds: Int32Array | null | undefined;

  private constructor(
    private readonly reader: PostingsReader,
    private readonly query: CompiledQuery,
    private readonly options: TextSearchOptions,
  ) {}

  /**
   * The search of `texts` (all required) within the filter; undefined when there is no text.
   * A phrase is read from the positions of every record that holds its words, whatever the
   * filter: a `repo_id` beside phrases of common words read them all for one record. Where
   * the filter allows a few records, the phrases are first read in those alone; if that
   * finds at most one match, no order is left to decide (the phrases' counts over every
   * record only weigh one leaf against another), and that is the answer; else they are
   * read whole, for the exact order.
   */
  static of(
    reader: PostingsReader,
    texts: readonly { readonly columns: readonly SearchColumn[]; readonly query: QueryNode }[],
    options: TextSearchOptions,
  ): TextSearch | undefined {
    const within = texts.some(({ query }) => hasPhrase(query)) ? fewAllowed(options.filter) : undefined;
    if (within) {
      const narrow = compileQuery(reader, texts, options.publishedIn, within);
      if (!narrow) return undefined;
      const search = new TextSearch(reader, narrow, options);
      if (search.matches().count() <= 1) return search;
    }
    const query = compileQuery(reader, texts, options.publishedIn);
    return query && new TextSearch(reader, query, options);
  }

  /** One scored word and no filter: its list is the answer, and no set is needed. */
  private get oneList(): boolean {
    return this.query.root.kind === 'leaf' && this.query.root.leaf.scored && !this.options.filter;
  }

  /** An OR of short lists and no filter: its matches, scored, come from one pass over the lists. */
  private get shortUnion(): boolean {
    const { root, scored } = this.query;
    if (root.kind !== 'or' || this.options.filter || !unionOfScored(root)) return false;
    let records = 0;
    for (const { postings } of scored) records += postings.docs;
    return records <= shortUnion;
  }

  /**
   * Every match with its score where one word is filtered (a date range, a facet) to a few
   * of its records and its records are kept as a bitset: read from the matches' side
   * rather than the word's whole list (scoreMatches); undefined otherwise.
   */
  private fewMatches(): Matches | undefined {
    const { root } = this.query;
    if (root.kind !== 'leaf' || !root.leaf.scored || !this.options.filter) return undefined;
    if (!root.leaf.postings.records?.() || this.matchCount() > root.leaf.postings.docs * fewOfWord) return undefined;
    return scoreMatches([root.leaf], this.matches(), this.reader.lengths, lengthNorms(this.reader), this.matchCount());
  }

  /** Every match with its score, for a short union (scoreUnion). */
  private union(): Matches {
    this.unionScores ??= scoreUnion(this.query.scored, this.reader.lengths, lengthNorms(this.reader));
    return this.unionScores;
  }

  /** Whether any word is scored (a query that only excludes is not ranked by relevance). */
  get scored(): boolean {
    return this.query.scored.length > 0;
  }

  /**
   * The matches, ascending, of an AND of scored words whose shortest list is not dense
   * (dense-sets.ts), read from that list's side (recordsLedByShortest): its few records
   * tested against the other words' sets and the filter, with no set made of them and no
   * AND over every record; undefined for any other query.
   */
  private led(): Int32Array | undefined {
    if (this.ledIds === undefined) {
      const { root } = this.query;
      const { capacity, filter } = this.options;
      const leaves: Leaf[] = [];
      if (root.kind === 'and') for (const child of root.children) if (child.kind === 'leaf' && child.leaf.scored) leaves.push(child.leaf);
      const applies =
        root.kind === 'and' &&
        leaves.length === root.children.length &&
        leaves.length > 1 &&
        !isDense(Math.min(...leaves.map(({ postings }) => postings.docs)), capacity);
      this.ledIds = applies ? recordsLedByShortest(leaves, capacity, filter) : null;
    }
    return this.ledIds ?? undefined;
  }

  /** Every match, as a bitset (what facets count under). */
  matches(): IdSet {
    const led = this.matched ? undefined : this.led();
    if (led) this.matched = IdSet.of(led, this.options.capacity);
    if (!this.matched) {
      const { capacity, universe, filter } = this.options;
      const text = matchSet(this.query.root, capacity, universe);
      this.matched = filter ? text.and(filter) : text;
    }
    return this.matched;
  }

  /** How many records match, without scoring any (a short OR ranked first counted them as it ranked them: rank before count). */
  count(): number {
    if (this.oneList) return this.query.scored[0]!.postings.docs;
    if (this.unionTotal !== undefined) return this.unionTotal;
    return this.unionScores ? this.unionScores.ids.length : this.matchCount();
  }

  private matchCount(): number {
    this.matchedCount ??= this.led()?.length ?? this.matches().count();
    return this.matchedCount;
  }

  /** The first `need` matches by bm25 (best first unless not `descending`), ties by `ties[id]` or the id. */
  rank(need: number, descending: boolean, ties: Int32Array | undefined): Int32Array {
    const { reader, query } = this;
    const norms = lengthNorms(reader);
    const blockMax = descending && need <= deepOrder && query.everyMatchScored;
    if (this.shortUnion) {
      if (!blockMax || !distinctLists(query.scored)) return topOrder(this.union(), descending, need, ties);
      const best = new BestOf(need, ties);
      this.unionTotal = topOfUnion(query.scored, reader.lengths, norms, best);
      return best.order();
    }
    const few = this.fewMatches();
    if (few) return topOrder(few, descending, need, ties);
    const led = this.led();
    if (led && led.length <= fewOfAnd)
      return topOrder(scoreRecords(query.scored, led, this.options.capacity, reader.lengths, norms), descending, need, ties);
    const matches = this.oneList ? undefined : this.matches();
    if (matches && query.root.kind === 'and' && this.matchCount() <= fewOfAnd)
      return topOrder(scoreMatches(query.scored, matches, reader.lengths, norms, this.matchCount()), descending, need, ties);
    if (blockMax) return topByBlockMax(query.scored, reader.lengths, norms, matches, need, ties);
    return topOrder(scoreEverything(query.scored, reader.lengths, norms, matches), descending, need, ties);
  }
}
