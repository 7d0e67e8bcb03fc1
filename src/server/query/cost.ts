import type { QueryNode } from './ast';

/**
 * What a search costs to run, estimated from its syntax tree before it runs, so that one
 * request cannot hold a worker for seconds (docs/decisions.md, "Query cost"). A word reads
 * one postings list; a prefix reads every word it expands to, and a short stem expands to
 * thousands; a phrase compares positions word by word.
 */

export const costLimits = {
  /** Cost units of all text parameters of one request together. */
  perRequest: 200,
  /** Words in one phrase. */
  phraseWords: 32,
  term: 1,
  prefix: 10,
  /** A prefix whose stem is shorter than `shortStem` letters. */
  shortPrefix: 40,
  shortStem: 3,
} as const;

const wordsOf = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

export interface QueryCost {
  readonly units: number;
  /** Words of the longest phrase. */
  readonly longestPhrase: number;
}

export function queryCost(node: QueryNode | undefined): QueryCost {
  if (!node) return { units: 0, longestPhrase: 0 };
  switch (node.type) {
    case 'term':
    case 'phrase': {
      const words = wordsOf(node.text);
      const prefix = node.type === 'term' && node.prefix;
      const last = words.at(-1) ?? '';
      const prefixUnits = !prefix ? 0 : last.length < costLimits.shortStem ? costLimits.shortPrefix : costLimits.prefix;
      const plainWords = prefix ? words.length - 1 : Math.max(1, words.length);
      return { units: plainWords * costLimits.term + prefixUnits, longestPhrase: words.length };
    }
    case 'not':
      return queryCost(node.child);
    default:
      return node.children
        .map(queryCost)
        .reduce((a, b) => ({ units: a.units + b.units, longestPhrase: Math.max(a.longestPhrase, b.longestPhrase) }));
  }
}
