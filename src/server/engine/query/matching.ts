import { IdSet } from '../id-set';
import { isDense, recordsOf } from '../postings/dense-sets';
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
    case 'or': {
      // One set the children are added into: a word's ids go in as its blocks are decoded,
      // with no set of its own to allocate and OR; a dense word's set, which its reader may
      // keep (dense-sets.ts), is ORed in whole.
      const set = new IdSet(capacity);
      for (const child of node.children) {
        if (child.kind === 'leaf' && !(child.leaf.postings.records && isDense(child.leaf.postings.docs, capacity))) {
          const { postings } = child.leaf;
          for (let b = 0; b < postings.blocks; b++) set.addAll(postings.ids(b));
        } else set.addSet(matchSet(child, capacity, universe));
      }
      return set;
    }
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
