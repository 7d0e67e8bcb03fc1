import type { IdSet } from '../id-set';
import { recordsOf } from '../postings/dense-sets';
import type { MatchNode } from './compile';

/**
 * The records a compiled query matches, as a bitset: each leaf's ids (its counts unread),
 * combined word by word with AND, OR and AND NOT. Nothing is scored, so a count is the
 * set's population count, and the same set filters the ranking and the facet counts.
 */
export function matchSet(node: MatchNode, capacity: number, universe: () => IdSet): IdSet {
  switch (node.kind) {
    case 'leaf': {
      const { postings } = node.leaf;
      return postings.records?.() ?? recordsOf(postings, capacity);
    }
    case 'records':
      return node.records();
    case 'not':
      return universe().andNot(matchSet(node.child, capacity, universe));
    case 'or':
      return node.children.map((child) => matchSet(child, capacity, universe)).reduce((acc, set) => acc.or(set));
    case 'and': {
      // x AND NOT y is x without y: no detour through every record.
      const positive = node.children.filter((child) => child.kind !== 'not');
      let set = positive.length
        ? positive.map((child) => matchSet(child, capacity, universe)).reduce((acc, next) => acc.and(next))
        : universe();
      for (const child of node.children) if (child.kind === 'not') set = set.andNot(matchSet(child.child, capacity, universe));
      return set;
    }
  }
}
